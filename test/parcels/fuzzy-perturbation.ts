/** Perturbations of a street name by one or two edits, for fuzzy-matching tests and benchmarks. */
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export function perturb(name: string, edits: number, random: () => number): string {
  let text = name;
  for (let e = 0; e < edits; e++) {
    const i = Math.floor(random() * text.length);
    const letter = LETTERS[Math.floor(random() * LETTERS.length)] ?? "A";
    switch (Math.floor(random() * 4)) {
      case 0: // substitution
        text = text.slice(0, i) + letter + text.slice(i + 1);
        break;
      case 1: // insertion (doubled letters included)
        text = text.slice(0, i) + (random() < 0.5 ? letter : (text[i] ?? letter)) + text.slice(i);
        break;
      case 2: // deletion
        text = text.length > 3 ? text.slice(0, i) + text.slice(i + 1) : text;
        break;
      default: // transposition of neighbours
        if (i + 1 < text.length) text = text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
    }
  }
  return text;
}

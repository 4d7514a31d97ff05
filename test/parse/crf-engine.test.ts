import assert from "node:assert/strict";
import { test } from "node:test";
import { emissions, featureSequence, sequenceScore, type CrfWeights } from "../../src/parse/crf/crf.js";
import { Decoder } from "../../src/parse/crf/decoder.js";
import { ForwardBackward } from "../../src/parse/crf/forward-backward.js";
import { minimize } from "../../src/parse/crf/lbfgs.js";
import {
  negativeLogLikelihood,
  parameterCount,
  weightsView,
  type TrainingSequence,
} from "../../src/parse/crf/objective.js";
import { ViterbiDecoder } from "../../src/parse/crf/viterbi.js";
import { SeededRandom } from "../../tools/seeded-random.js";

const L = 3;
const F = 5;

function randomModel(random: SeededRandom): CrfWeights {
  const theta = new Float64Array(parameterCount(L, F)).map(() => (random.next() - 0.5) * 4);
  return weightsView(theta, L, F);
}

function randomSequence(random: SeededRandom, length: number) {
  const positions = Array.from({ length }, () => [random.int(0, F - 1), random.int(0, F - 1)]);
  return featureSequence(positions);
}

/** Every labelling of a sequence of length T over L labels. */
function* labellings(T: number): Generator<number[]> {
  const count = L ** T;
  for (let code = 0; code < count; code++) {
    const labels: number[] = [];
    for (let t = 0, rest = code; t < T; t++, rest = Math.floor(rest / L)) labels.push(rest % L);
    yield labels;
  }
}

test("Viterbi finds the labelling brute-force enumeration finds, on random models", () => {
  const random = new SeededRandom(1);
  const decoder = new ViterbiDecoder();
  for (let trial = 0; trial < 40; trial++) {
    const model = randomModel(random);
    const T = random.int(1, 5);
    const emit = emissions(model, randomSequence(random, T));
    let best = -Infinity;
    for (const labels of labellings(T)) best = Math.max(best, sequenceScore(model, emit, labels));
    const path = decoder.decode(model, emit, T);
    assert.ok(Math.abs(sequenceScore(model, emit, path) - best) < 1e-9);
  }
});

test("forward-backward log Z and marginals equal brute-force enumeration, and marginals sum to 1", () => {
  const random = new SeededRandom(2);
  const lattice = new ForwardBackward();
  for (let trial = 0; trial < 30; trial++) {
    const model = randomModel(random);
    const T = random.int(1, 5);
    const emit = emissions(model, randomSequence(random, T));
    const expected = new Float64Array(T * L);
    let z = 0;
    for (const labels of labellings(T)) {
      const p = Math.exp(sequenceScore(model, emit, labels));
      z += p;
      labels.forEach((y, t) => (expected[t * L + y] = (expected[t * L + y] as number) + p));
    }
    lattice.prepare(model);
    assert.ok(Math.abs(lattice.forward(model, emit, T) - Math.log(z)) < 1e-9);
    lattice.backward(model, emit, T);
    const marginals = lattice.marginals(L, T);
    for (let t = 0; t < T; t++) {
      let sum = 0;
      for (let y = 0; y < L; y++) {
        sum += marginals[t * L + y] as number;
        assert.ok(Math.abs((marginals[t * L + y] as number) - (expected[t * L + y] as number) / z) < 1e-9);
      }
      assert.ok(Math.abs(sum - 1) < 1e-9);
    }
  }
});

function toyData(random: SeededRandom, count: number): TrainingSequence[] {
  // A feature naming the label (0..2) followed by feature 4, "same as before", repeated: the
  // continuation is only learnable through the transition weights.
  return Array.from({ length: count }, () => {
    const label = random.int(0, 2);
    const length = random.int(1, 6);
    const ids = Array.from({ length }, (_, t) => [t === 0 ? label : 4]);
    return { features: featureSequence(ids), labels: new Int32Array(length).fill(label) };
  });
}

test("the gradient of the negative log-likelihood matches finite differences", () => {
  const random = new SeededRandom(3);
  const data = toyData(random, 6);
  const theta = new Float64Array(parameterCount(L, F)).map(() => random.next() - 0.5);
  const gradient = new Float64Array(theta.length);
  negativeLogLikelihood(theta, gradient, data, L, F, 0.3);
  const scratch = new Float64Array(theta.length);
  const h = 1e-5;
  for (let i = 0; i < theta.length; i++) {
    const plus = Float64Array.from(theta);
    const minus = Float64Array.from(theta);
    plus[i] = (plus[i] as number) + h;
    minus[i] = (minus[i] as number) - h;
    const numeric =
      (negativeLogLikelihood(plus, scratch, data, L, F, 0.3) -
        negativeLogLikelihood(minus, scratch, data, L, F, 0.3)) /
      (2 * h);
    assert.ok(
      Math.abs(numeric - (gradient[i] as number)) < 1e-5,
      `parameter ${i}: ${numeric} vs ${gradient[i]}`,
    );
  }
});

test("L-BFGS training fits a toy task that needs transition weights", () => {
  const random = new SeededRandom(4);
  const train = toyData(random, 200);
  const theta = new Float64Array(parameterCount(L, F));
  const result = minimize((x, g) => negativeLogLikelihood(x, g, train, L, F, 0.01), theta, {
    maxIterations: 200,
  });
  assert.ok(result.iterations > 1);
  const model = weightsView(theta, L, F);
  const decoder = new ViterbiDecoder();
  let right = 0;
  let total = 0;
  for (const sequence of toyData(random, 100)) {
    const path = decoder.decode(model, emissions(model, sequence.features), sequence.labels.length);
    sequence.labels.forEach((y, t) => ((right += y === path[t] ? 1 : 0), total++));
  }
  assert.equal(right, total);
});

/** Both of the Decoder's entry points on one line: from log-space scores and from their exponentials. */
function bothDecodes(decoder: Decoder, emit: Float64Array, T: number) {
  const fromExps = decoder.decodeExp(
    emit.map((e) => Math.exp(e)),
    T,
  );
  assert.ok(fromExps !== undefined, "exponentials in range decode");
  return [
    ["log-space scores", decoder.decode(emit, T)],
    ["exponentials", fromExps],
  ] as const;
}

test("the fused inference decoder equals ViterbiDecoder and ForwardBackward", () => {
  const random = new SeededRandom(5);
  const viterbi = new ViterbiDecoder();
  const lattice = new ForwardBackward();
  for (let trial = 0; trial < 30; trial++) {
    const model = randomModel(random);
    const T = random.int(1, 7);
    const emit = emissions(model, randomSequence(random, T));
    const path = viterbi.decode(model, emit, T);
    lattice.prepare(model);
    const logZ = lattice.forward(model, emit, T);
    for (const [from, decoded] of bothDecodes(new Decoder(model), emit, T)) {
      assert.deepEqual(Array.from(decoded.path), Array.from(path), from);
      assert.ok(Math.abs(decoded.score - sequenceScore(model, emit, path)) < 1e-9, from);
      assert.ok(Math.abs(decoded.logZ - logZ) < 1e-9, from);
    }
  }
});

test("the decoder's blocked forward product equals ForwardBackward for label counts around its block size", () => {
  const random = new SeededRandom(11);
  const viterbi = new ViterbiDecoder();
  const lattice = new ForwardBackward();
  const features = 6;
  // 6 labels: no whole block; 7 and 14: whole blocks only; 16 and 21 (the shipped model's):
  // blocks and a remainder.
  for (const labels of [6, 7, 14, 16, 21]) {
    for (let trial = 0; trial < 20; trial++) {
      const theta = new Float64Array(parameterCount(labels, features)).map(() => (random.next() - 0.5) * 6);
      const model = weightsView(theta, labels, features);
      const T = random.int(1, 10);
      const emit = emissions(
        model,
        featureSequence(
          Array.from({ length: T }, () => [random.int(0, features - 1), random.int(0, features - 1)]),
        ),
      );
      const path = viterbi.decode(model, emit, T);
      lattice.prepare(model);
      const logZ = lattice.forward(model, emit, T);
      for (const [from, decoded] of bothDecodes(new Decoder(model), emit, T)) {
        assert.deepEqual(Array.from(decoded.path), Array.from(path), `${labels} labels, ${from}`);
        assert.ok(Math.abs(decoded.logZ - logZ) < 1e-9, `${labels} labels, ${from}`);
      }
    }
  }
});

test("the log-space decoder's path equals ViterbiDecoder's where scores tie", () => {
  const random = new SeededRandom(9);
  const labels = 6;
  const features = 4;
  const viterbi = new ViterbiDecoder();
  const lattice = new ForwardBackward();
  for (let trial = 0; trial < 200; trial++) {
    // Small integer weights: many labellings tie, which tests the tie-breaking of the
    // dominance test (the first best predecessor, the first best final label). Products of
    // exponentials round unlike sums, so from exponentials only the score of the path is held.
    const theta = new Float64Array(parameterCount(labels, features)).map(() => random.int(-2, 2));
    const model = weightsView(theta, labels, features);
    const T = random.int(1, 9);
    const emit = emissions(
      model,
      featureSequence(Array.from({ length: T }, () => [random.int(0, features - 1)])),
    );
    const decoder = new Decoder(model);
    const [[, plain], [, fromExps]] = bothDecodes(decoder, emit, T);
    assert.deepEqual(Array.from(plain.path), Array.from(viterbi.decode(model, emit, T)));
    assert.equal(sequenceScore(model, emit, fromExps.path), plain.score);
    lattice.prepare(model);
    const logZ = lattice.forward(model, emit, T);
    assert.ok(Math.abs(plain.logZ - logZ) < 1e-9);
    assert.ok(Math.abs(fromExps.logZ - logZ) < 1e-9);
  }
});

test("linear-space columns that leave 1e±100 along a long line are rescaled, and the figures stay exact", () => {
  // Every position adds about ±40 to log Z and the best score: unscaled, δ and α would pass
  // 1e100 (or 1e-100) within six positions and overflow (underflow) within twenty.
  const viterbi = new ViterbiDecoder();
  for (const sign of [1, -1]) {
    const random = new SeededRandom(3);
    const model = weightsView(
      new Float64Array(parameterCount(3, 1)).map(() => random.next() - 0.5),
      3,
      1,
    );
    const T = 40;
    const emit = Float64Array.from({ length: T * 3 }, () => sign * (40 + 3 * random.next()));
    const decoded = new Decoder(model).decodeExp(
      emit.map((e) => Math.exp(e)),
      T,
    );
    assert.ok(decoded !== undefined);
    const path = viterbi.decode(model, emit, T);
    assert.deepEqual(Array.from(decoded.path), Array.from(path), `sign ${sign}`);
    const score = sequenceScore(model, emit, path);
    assert.ok(Math.abs(decoded.score - score) < 1e-9 * Math.abs(score), `sign ${sign}`);
    const lattice = new ForwardBackward();
    lattice.prepare(model);
    const logZ = lattice.forward(model, emit, T);
    assert.ok(Math.abs(decoded.logZ - logZ) < 1e-9 * Math.abs(logZ), `sign ${sign}`);
  }
});

test("exponentials that overflow or underflow are refused, and the log-space scores decode", () => {
  const model = weightsView(new Float64Array(parameterCount(2, 1)), 2, 1);
  const lattice = new ForwardBackward();
  lattice.prepare(model);
  for (const emit of [Float64Array.from([800, 790, 0, 0]), Float64Array.from([0, 0, -800, -790])]) {
    const decoder = new Decoder(model);
    assert.equal(
      decoder.decodeExp(
        emit.map((e) => Math.exp(e)),
        2,
      ),
      undefined,
    );
    const decoded = decoder.decode(emit, 2);
    assert.deepEqual(Array.from(decoded.path), Array.from(new ViterbiDecoder().decode(model, emit, 2)));
    assert.ok(Math.abs(decoded.logZ - lattice.forward(model, emit, 2)) < 1e-9);
  }
});

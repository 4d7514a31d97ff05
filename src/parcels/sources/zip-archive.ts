import type { Readable } from "node:stream";
import type { Entry, ZipFile } from "yauzl";
import yauzl from "yauzl";

/**
 * A zip file's entries, read from its central directory (yauzl), and streams of their contents:
 * a zipped shapefile is read straight from the archive, never extracted.
 */
export class ZipArchive {
  private constructor(
    private readonly zip: ZipFile,
    /** The files (not directories; no macOS resource forks), in archive order. */
    readonly entries: Entry[],
  ) {}

  static async open(file: string): Promise<ZipArchive> {
    const zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, opened) =>
        error ? reject(new Error(`${file}: not a readable zip file (${error.message})`)) : resolve(opened),
      ),
    );
    const entries: Entry[] = [];
    await new Promise<void>((resolve, reject) => {
      zip.on("entry", (entry: Entry) => {
        if (!entry.fileName.endsWith("/") && !entry.fileName.startsWith("__MACOSX/")) entries.push(entry);
        zip.readEntry();
      });
      zip.once("end", () => resolve());
      zip.once("error", (error: Error) => reject(new Error(`${file}: damaged zip file (${error.message})`)));
      zip.readEntry();
    }).catch((error: unknown) => {
      zip.close();
      throw error;
    });
    return new ZipArchive(zip, entries);
  }

  stream(entry: Entry): Promise<Readable> {
    return new Promise((resolve, reject) =>
      this.zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
    );
  }

  async read(entry: Entry): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(entry)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  close(): void {
    this.zip.close();
  }
}

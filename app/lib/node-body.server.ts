import { PassThrough, Readable, type Writable } from "node:stream";

/**
 * A document body that the production server can write straight into the Node response (no
 * web-stream hops: React's pipe -> the socket), and that anything else (route tests, a
 * middleware that reads the body) can still read as an ordinary web stream.
 *
 * `start(destination)` is React's `pipe`, called exactly once: by `pipeToNode` when the server
 * takes the direct path, or on the first read of the web stream otherwise.
 */
const direct = new WeakMap<ReadableStream<Uint8Array>, (destination: Writable) => void>();

export function createNodeBody(start: (destination: Writable) => void): ReadableStream<Uint8Array> {
  let started = false;
  const startOnce = (destination: Writable) => {
    if (started) throw new Error("the document body was already started");
    started = true;
    start(destination);
  };
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!reader) {
          const through = new PassThrough();
          startOnce(through);
          reader = (Readable.toWeb(through) as ReadableStream<Uint8Array>).getReader();
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        return reader?.cancel(reason);
      },
    },
    // Nothing is pulled (and nothing rendered into a buffer) before someone reads.
    { highWaterMark: 0 },
  );
  direct.set(body, startOnce);
  return body;
}

/**
 * Writes `body` straight into `destination` when it is a body from `createNodeBody` that no one
 * has read yet; resolves when the destination has finished or closed. Returns false (and does
 * nothing) for any other body.
 */
export function pipeToNode(body: ReadableStream<Uint8Array> | null, destination: Writable): Promise<void> | false {
  const start = body ? direct.get(body) : undefined;
  if (!body || !start || body.locked) return false;
  direct.delete(body);
  return new Promise<void>((resolve) => {
    destination.once("finish", resolve);
    destination.once("close", resolve);
    start(destination);
  });
}

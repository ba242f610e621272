import { PassThrough, type Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createNodeBody, pipeToNode } from "~/lib/node-body.server";

/** A stand-in for React's pipe: writes two chunks and ends, counting how often it was started. */
function fakeRender() {
  const render = {
    starts: 0,
    pipe(destination: Writable) {
      render.starts++;
      destination.write("<html>");
      setImmediate(() => destination.end("</html>"));
    },
  };
  return render;
}

function collect(stream: PassThrough): Promise<string> {
  let text = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    text += chunk;
  });
  return new Promise((resolve) => stream.on("end", () => resolve(text)));
}

describe("document bodies written straight into the Node response", () => {
  it("pipe into a Node writable without a web stream, once", async () => {
    const render = fakeRender();
    const body = createNodeBody(render.pipe);
    expect(render.starts).toBe(0);
    const destination = new PassThrough();
    const text = collect(destination);
    const piped = pipeToNode(body, destination);
    expect(piped).not.toBe(false);
    await piped;
    expect(await text).toBe("<html></html>");
    expect(render.starts).toBe(1);
    // The direct path is taken once; the web stream is left alone.
    expect(pipeToNode(body, new PassThrough())).toBe(false);
  });

  it("read as an ordinary web stream by anyone else, rendering only when read", async () => {
    const render = fakeRender();
    const response = new Response(createNodeBody(render.pipe));
    await new Promise((resolve) => setImmediate(resolve));
    expect(render.starts).toBe(0);
    expect(await response.text()).toBe("<html></html>");
    expect(render.starts).toBe(1);
  });

  it("a body being read is never piped a second time, and other bodies are not touched", async () => {
    const render = fakeRender();
    const body = createNodeBody(render.pipe);
    const reader = body.getReader();
    await reader.read();
    expect(pipeToNode(body, new PassThrough())).toBe(false);
    expect(render.starts).toBe(1);
    expect(pipeToNode(new Response("plain").body, new PassThrough())).toBe(false);
    expect(pipeToNode(null, new PassThrough())).toBe(false);
  });
});

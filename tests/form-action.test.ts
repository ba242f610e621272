import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FETCHER_FIELD, formAction, readFormBody, UserError } from "~/lib/form-action.server";
import { createTestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

const svc = await createTestServices();

const schema = z.object({
  name: z.string({ error: "errors.nameRequired" }).min(2, "errors.nameTooShort"),
  tags: z.array(z.string()).optional(),
});

let authorized = 0;
const action = formAction(
  {
    schema,
    maxBytes: 2048,
    authorize: () => {
      authorized += 1;
      return { actor: 7 };
    },
  },
  ({ value, auth, context, form }) => {
    if (value.name === "taken")
      throw new UserError("errors.nameTaken", { field: "name", params: { name: value.name } });
    if (value.name === "gone") throw new UserError("errors.gone", { status: 409 });
    return {
      context,
      form,
      echo: `${value.name}:${auth.actor}`,
    };
  },
);

function post(body: BodyInit, headers: Record<string, string> = {}) {
  return new Request("http://shop.test/form", { method: "POST", body, headers });
}

type Answer = {
  result: { status?: string; error?: Record<string, string[]>; initialValue?: Record<string, unknown> };
  problem: unknown;
};

async function answer(request: Request) {
  const { result, thrown } = await runRoute(svc, action as never, request, null);
  expect(thrown).toBeUndefined();
  const response = result as { type?: string; data: Answer; init: { status: number } | null };
  return { status: response.init?.status ?? 200, data: response.data };
}

describe("formAction, the one contract of a form action", () => {
  it("checks the right before it reads the body", async () => {
    const before = authorized;
    await answer(post(formOf({ name: "ok name" })));
    expect(authorized).toBe(before + 1);
  });

  it("answers a body over the limit with 413 and one that is not a form with 400", async () => {
    const tooLarge = await answer(post(formOf({ name: "x".repeat(5000) })));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.data.problem).toEqual({ key: "error.bodyTooLarge" });
    expect(tooLarge.data.result.error?.[""]).toEqual(["error.bodyTooLarge"]);

    const notAForm = await answer(post('{"name":"json"}', { "Content-Type": "application/json" }));
    expect(notAForm.status).toBe(400);
    expect(notAForm.data.problem).toEqual({ key: "error.badRequest" });
  });

  it("says an unread body in the page's own words, next to the field it names", async () => {
    const upload = formAction(
      {
        schema,
        maxBytes: 2048,
        unread: {
          tooLarge: { key: "errors.photoTooLarge", field: "photo" },
          notAForm: { key: "errors.photoUnreadable", detailKey: "errors.tryAgain" },
        },
      },
      () => ({ saved: true }),
    );
    const call = async (request: Request) => {
      const { result } = await runRoute(svc, upload as never, request, null);
      const response = result as { data: Answer; init: { status: number } | null };
      return { status: response.init?.status, data: response.data };
    };
    const tooLarge = await call(post(formOf({ name: "x".repeat(5000) })));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.data.problem).toEqual({ key: "errors.photoTooLarge", field: "photo" });
    expect(tooLarge.data.result.error?.photo).toEqual(["errors.photoTooLarge"]);

    const notAForm = await call(post("garbage", { "Content-Type": "multipart/form-data; boundary=x" }));
    expect(notAForm.status).toBe(400);
    expect(notAForm.data.result.error?.[""]).toEqual(["errors.photoUnreadable", "errors.tryAgain"]);
  });

  it("answers invalid input with 400, the field's error and the user's input", async () => {
    const { status, data } = await answer(post(formOf({ name: "a" })));
    expect(status).toBe(400);
    expect(data.result.error?.name).toEqual(["errors.nameTooShort"]);
    expect(data.result.initialValue).toMatchObject({ name: "a" });
    expect(data.problem).toBeNull();
  });

  it("answers a Conform list intent with 200 and the changed form, without running the handler", async () => {
    const form = formOf({ name: "ok name", "tags[0]": "red" });
    form.set("__intent__", JSON.stringify({ type: "insert", payload: { name: "tags" } }));
    const { status, data } = await answer(post(form));
    expect(status).toBe(200);
    expect(data.result.status).toBeUndefined();
    // The row was added: the reply carries the typed row and a new, empty one.
    expect(data.result.initialValue?.tags).toEqual(["red", undefined]);
  });

  it("turns a UserError into its status with the message next to its field and the input kept", async () => {
    const taken = await answer(post(formOf({ name: "taken" })));
    expect(taken.status).toBe(400);
    expect(taken.data.result.error?.name).toEqual(["errors.nameTaken"]);
    expect(taken.data.result.initialValue).toMatchObject({ name: "taken" });
    expect(taken.data.problem).toEqual({ key: "errors.nameTaken", field: "name", params: { name: "taken" } });

    const gone = await answer(post(formOf({ name: "gone" })));
    expect(gone.status).toBe(409);
    expect(gone.data.result.error?.[""]).toEqual(["errors.gone"]);
  });

  it("adds what `unsaved` returns to every answer that saves nothing, and only to those", async () => {
    const calls: (string | null)[] = [];
    const keeping = formAction(
      {
        schema,
        unsaved: async ({ form, problem }) => {
          calls.push(problem?.key ?? null);
          return { kept: form.get("name") };
        },
      },
      ({ value }) => {
        if (value.name === "taken") throw new UserError("errors.nameTaken", { field: "name" });
        return { saved: true };
      },
    );
    const call = async (body: FormData) => {
      const { result } = await runRoute(svc, keeping as never, post(body), null);
      return result as { data: Record<string, unknown>; init?: { status: number } | null };
    };
    const intent = formOf({ name: "ok name" });
    intent.set("__intent__", JSON.stringify({ type: "insert", payload: { name: "tags" } }));
    expect((await call(intent)).data).toMatchObject({ kept: "ok name", problem: null });
    expect((await call(formOf({ name: "a" }))).data).toMatchObject({ kept: "a" });
    const refused = await call(formOf({ name: "taken" }));
    expect(refused.init?.status).toBe(400);
    expect(refused.data).toMatchObject({ kept: "taken", problem: { key: "errors.nameTaken" } });
    expect(calls).toEqual([null, null, "errors.nameTaken"]);
    expect(await call(formOf({ name: "saved" }))).toEqual({ saved: true });
    expect(calls).toHaveLength(3);
  });

  it("lets other errors through (a bug stays a 500)", async () => {
    const broken = formAction({ schema }, () => {
      throw new Error("boom");
    });
    const { thrown } = await runRoute(svc, broken as never, post(formOf({ name: "fine" })), null);
    expect((thrown as Error).message).toBe("boom");
  });

  it("reads a small form whole and refuses garbage multipart", async () => {
    const form = await readFormBody(post(formOf({ a: "1", [FETCHER_FIELD]: "1" })));
    expect(form.get("a")).toBe("1");
    await expect(
      readFormBody(post("--x\r\nbroken", { "Content-Type": "multipart/form-data; boundary=x" })),
    ).rejects.toMatchObject({ status: 400, problem: { key: "error.badRequest" } });
  });
});

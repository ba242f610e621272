/**
 * The request's form fields; a body that is not a form (missing, JSON, garbage) reads as an
 * empty form, so the action answers with its usual 400 instead of failing with a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    return new FormData();
  }
}

// Placeholder: the admin orders/customers benchmark is being written (issue 7).
export async function main(): Promise<void> {
  console.info("bench:admin: not written yet");
}

/** A failed delivery attempt, with what the other side answered when it answered (a webhook's HTTP status). */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly responseStatus: number | null = null,
  ) {
    super(message);
    this.name = "DeliveryError";
  }
}

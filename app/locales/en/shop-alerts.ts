/**
 * English text of the shop's own alerts (app/models/outbox/alerts.server.ts): e-mails to the
 * notification addresses of Settings → Shop details; zh/shop-alerts.ts has the same keys.
 */
export default {
  customer: "Customer: {{customer}} <{{email}}>",
  amount: "Amount: {{amount}}",
  deadline: "Payment deadline: {{deadline}} (Hong Kong time)",
  openOrder: "Open the order",
  orderPlaced: {
    subject: "New order {{number}}: {{amount}}",
    heading: "New order {{number}}",
    withReceipt: "The transfer receipt came with the order: it is waiting for your review.",
    payLater: "The customer will pay later: no receipt yet.",
  },
  receiptUploaded: {
    subject: "Receipt to check: order {{number}}",
    heading: "A receipt is waiting for your review",
    text: "The customer uploaded the transfer receipt of order {{number}}: it is waiting for your review.",
  },
  receiptReplaced: {
    subject: "New receipt to check: order {{number}}",
    heading: "A new receipt is waiting for your review",
    text: "The customer uploaded a new transfer receipt for order {{number}}, in place of the one that was rejected: it is waiting for your review.",
  },
  orderExpired: {
    subject: "Order {{number}} expired unpaid",
    heading: "Order {{number}} expired unpaid",
    text: "No payment for order {{number}} arrived by its deadline, {{deadline}} (Hong Kong time). The shop cancelled it, put its items back in stock and told the customer.",
  },
  deadlineExtended: {
    subject: "Payment deadline extended: order {{number}}",
    heading: "Payment deadline extended",
    text: "Order {{number}} now has until {{deadline}} (Hong Kong time) to be paid.",
  },
  messageFailed: {
    subject: "Not sent: {{subject}}",
    heading: "A message could not be sent",
    text: "The shop tried for 24 hours to send this message and has given up. You can send it again from Admin → Messages.",
    subjectLine: "Subject: {{subject}}",
    recipient: "To: {{recipient}}",
    attempts: "Attempts: {{attempts}}",
    lastError: "Last error: {{error}}",
    order: "Order: {{number}} ({{url}})",
    open: "Open the message",
  },
};

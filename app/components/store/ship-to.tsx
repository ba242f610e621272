import { HeadedPanel } from "~/components/ui/headed-panel";
import { formatPersonName } from "~/lib/person-name";

/** Who an order goes to and where, as typed at checkout. */
export interface ShippingContact {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string | null;
  address: string;
  city: string;
  postalCode?: string | null;
  country: string;
}

/** An order's (or the last order's) name, phone and address, by the checkout form's field names. */
export function addressOfOrder(order: {
  first_name: string;
  last_name: string;
  phone: string | null;
  address: string;
  city: string;
  postal_code: string | null;
  country: string;
}) {
  return {
    firstName: order.first_name,
    lastName: order.last_name,
    phone: order.phone,
    address: order.address,
    city: order.city,
    postalCode: order.postal_code,
    country: order.country,
  };
}

/** Where an order goes: name · e-mail · phone, the address, and the customer's notes (payment and order pages). */
export function ShipTo({ title, contact, notes }: { title: string; contact: ShippingContact; notes?: string | null }) {
  return (
    <HeadedPanel headingId="ship-to-heading" title={title} className="text-sm">
      <p className="mt-2">
        {formatPersonName(contact.firstName, contact.lastName)} · {contact.email}
        {contact.phone ? ` · ${contact.phone}` : ""}
      </p>
      <p>
        {contact.address}, {contact.city}
        {contact.postalCode ? ` ${contact.postalCode}` : ""}, {contact.country}
      </p>
      {notes ? <p className="mt-2 text-stone-600">{notes}</p> : null}
    </HeadedPanel>
  );
}

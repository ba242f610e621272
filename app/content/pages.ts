/**
 * The policy pages (shipping, returns, FAQ, contact, privacy, terms) as the shop ships them, in
 * English and Traditional Chinese (Hong Kong). The owner edits them under Settings → Shop details
 * (stored in site_settings, app/models/settings/content-pages.server.ts); until then these show.
 *
 * The text is Markdown. These placeholders are replaced with the shop's details when a page is
 * shown, so the defaults stay true when the owner changes them: {{shop_name}}, {{support_email}},
 * {{address}}, and the delivery charges in the reader's currency {{shipping_fee}} and
 * {{free_shipping_above}}.
 */

export const CONTENT_PAGES = ["shipping", "returns", "faq", "contact", "privacy", "terms"] as const;
export type ContentPageSlug = (typeof CONTENT_PAGES)[number];

export const PAGE_PLACEHOLDERS = [
  "shop_name",
  "support_email",
  "address",
  "shipping_fee",
  "free_shipping_above",
] as const;
export type PagePlaceholder = (typeof PAGE_PLACEHOLDERS)[number];

export interface ContentPageText {
  title: string;
  /** Meta description, under 160 characters once the placeholders are filled in. */
  description: string;
  /** Markdown. */
  body: string;
}

/** When the default text was last revised. */
export const DEFAULT_PAGES_UPDATED = "2026-11-01";

const en: Record<ContentPageSlug, ContentPageText> = {
  shipping: {
    title: "Shipping Information",
    description:
      "Orders ship within 48 hours of payment verification. Free shipping on orders above {{free_shipping_above}}, otherwise a flat {{shipping_fee}}.",
    body: `Every order is packed by hand at our Kwun Tong shop. Here is how long each step takes, what delivery costs and where we can send your gear.

## Processing times

After you pay by FPS or bank transfer and upload your receipt, our team checks the payment against our bank records. Verification takes 1 to 2 business days; receipts uploaded on a Sunday or public holiday are checked on the next business day.

Once your payment is verified, we process and dispatch your order within 48 hours. Before packing, every airsoft gun is inspected and tested with a chronograph, so it arrives ready to use and within Hong Kong's legal limit.

## Delivery in Hong Kong

Local orders are sent by SF Express or another courier to your address, or to an SF Express service point or locker. Most orders arrive within 48 hours of payment verification; deliveries to outlying islands and remote areas may take an extra day.

The courier may check the recipient's name and phone number on delivery, so please make sure both are correct at checkout.

## Shipping fees

- Free shipping on orders with a subtotal above {{free_shipping_above}} (in the order's currency).
- Other orders pay a flat shipping fee of {{shipping_fee}}.
- The shipping fee is shown in your cart and at checkout before you place your order.

## Overseas shipping

Airsoft guns are restricted or banned from import in many countries, and most carriers will not accept them for international shipping. We therefore only ship airsoft guns where both the local law and the carrier allow it. If we cannot send a gun to your country, we will contact you before processing the order and refund that item in full.

Accessories, spare parts and tactical gear such as vests, pouches, holsters, gloves and clothing can be shipped to most countries.

Gas canisters and lithium batteries are dangerous goods and cannot be sent by air, so they are available for Hong Kong delivery or pickup only.

Import duties, taxes and customs charges in the destination country are paid by the buyer. Overseas delivery times depend on the destination and on customs clearance.

## Tracking your order

When your parcel leaves our shop, we e-mail you the tracking number and mark the order as shipped. You can also find the tracking number on the order in your account.

If the tracking has not updated for 3 business days, or your parcel arrives damaged, contact us with your order number and we will follow up with the courier.`,
  },
  returns: {
    title: "Returns & Refunds",
    description:
      "Return unused items in original packaging within 7 days. Faulty-on-arrival items are repaired, replaced or refunded. Refunds by bank transfer.",
    body: `We want you to be happy with your gear. If something is not right, you can return it under the conditions below.

## 7-day returns

You can return any unused item within 7 days of delivery, as long as it is in its original packaging with all accessories, manuals and magazines included. Items must be in resaleable condition: not test-fired, not filled with gas and free of marks from fitting.

For change-of-mind returns, the buyer pays the return shipping cost and the original shipping fee is not refunded.

## Defective on arrival

If an item arrives damaged or does not work, tell us within 48 hours of delivery. Please send your order number, a short description of the problem and photos or a video that show it.

We will arrange for the item to be collected or dropped off at our shop, inspect it, and then repair it, replace it or give you a full refund including the shipping fee. We cover the return shipping cost for defective items.

## How to start a return

- E-mail {{support_email}} with your order number, the item you want to return and the reason.
- Wait for our reply with return instructions before sending anything back. Parcels sent without contacting us first may be delayed or refused.
- Pack the item securely in its original packaging and send it to our shop by a trackable service, or drop it off during opening hours.
- We inspect returned items within 2 business days of receiving them and e-mail you the result.

## Refunds

Approved refunds are paid by bank transfer to the account you give us, in the currency of your original order, within 5 business days of approval.

We do not charge a fee for refunds, but charges made by your own bank for receiving an overseas transfer are outside our control.

## Items that cannot be returned

- Gas and BBs that have been used or opened.
- Opened consumables such as batteries, grease, silicone oil, O-rings and cleaning supplies.
- Items modified, upgraded, taken apart or repaired by the buyer or a third party.
- Items damaged by misuse, dropping, unsuitable BBs or gas, or the wrong batteries.`,
  },
  faq: {
    title: "Frequently Asked Questions",
    description:
      "Answers on airsoft law in Hong Kong, paying by FPS, payment verification, currencies, order status, overseas shipping, warranty and pickup.",
    body: `These are the questions our customers ask most often. If you cannot find your answer here, e-mail us at {{support_email}}.

## Buying airsoft in Hong Kong

### Are airsoft guns legal in Hong Kong?

Yes, as long as they stay within the law. Under the Firearms and Ammunition Ordinance (Cap. 238), an airsoft gun with a muzzle energy above 2 joules is treated as a firearm and needs a licence. Every gun we sell is tested to stay under 2 joules. Do not modify a gun to exceed this limit, and keep it in a bag or case when you carry it in public.

### Do I have to be 18 to buy?

Yes. We sell airsoft guns and gear only to adults aged 18 or over. By placing an order you confirm that you are 18 or older, and we may ask to see ID when you collect or receive your order.

## Payment

### How do I pay by FPS and upload my receipt?

After you place your order, the order page shows our FPS ID, our bank account details and the exact amount to pay. Transfer the full amount in your banking app, adding your order number in the reference or remarks if you can. Then take a screenshot of the confirmation screen and upload it on the order page as a JPG, PNG or WebP image.

### How long does payment verification take?

1 to 2 business days after you upload your receipt. We check each receipt against our bank records by hand. If something does not match, for example the amount is short, we will tell you why and you can upload a new receipt.

### Which currencies can I pay in?

Prices are shown in Hong Kong dollars (HKD), British pounds (GBP), euros (EUR) and US dollars (USD); choose your currency from the menu at the top of the page. We set the price in each currency ourselves rather than converting at live rates, and your order is charged in the currency you check out in. FPS is for HKD payments; for GBP, EUR and USD orders, pay by bank transfer using the details on your order page. Any bank or transfer charges are paid by the sender.

## Your order

### How can I check my order status?

Sign in and open your account to see each order and its status: awaiting payment, paid, processing, shipped, delivered or cancelled. We e-mail you the tracking number as soon as your order ships.

### Can I change or cancel my order?

Before your payment is verified, e-mail us with your order number and we can change the items or delivery address, or cancel the order. Once an order is being processed or has shipped it can no longer be changed, but unused items can still be sent back under our 7-day returns policy.

## Delivery and after-sales

### Do you ship overseas?

Accessories, parts and tactical gear ship to most countries. Airsoft guns are banned or restricted in many countries and most carriers refuse them, so we only send guns where the local law and the carrier allow it. Gas and batteries are for Hong Kong only. See our shipping page for details.

### Is there a warranty?

Airsoft guns come with a 30-day shop warranty from delivery, covering manufacturing defects under normal use. It does not cover wear parts, damage from dropping, problems caused by low-quality BBs or the wrong gas, or guns modified or opened by anyone other than us. Items that are faulty on arrival are handled under our returns policy.

### Can I pick up my order in person?

Yes. Write 'Self-pickup' in the order notes at checkout. Once your payment is verified, we will e-mail you when the order is ready, usually within 48 hours, and you can collect it from our Kwun Tong shop during opening hours (Monday to Saturday, 12:00 to 20:00). Please bring your order number and photo ID. If a shipping fee was charged, we refund it when you collect.`,
  },
  contact: {
    title: "Contact Us",
    description:
      "Visit {{shop_name}} in Kwun Tong or e-mail {{support_email}}. Open Monday to Saturday, 12:00 to 20:00.",
    body: `Questions about a product, an order or a repair? Drop by the shop or send us an e-mail, and a fellow player will get back to you.

## Shop address

{{shop_name}}

{{address}}

The shop is a few minutes' walk from Kwun Tong MTR station. Take the lift to the 8th floor.

## Opening hours

The shop is also closed while Typhoon Signal No. 8 or above, or a Black Rainstorm Warning, is in force.

- Monday to Saturday: 12:00 to 20:00
- Sundays and public holidays: closed

## E-mail

{{support_email}}

We reply within 1 business day, and usually on the same day for messages received during opening hours. Messages sent on Sundays or public holidays are answered on the next business day.

## To help us reply faster

- Your order number, if your question is about an order
- The product name or a link to it
- Photos or a short video if something is damaged or not working
- For payment questions, the date, amount and currency of your transfer`,
  },
  privacy: {
    title: "Privacy Policy",
    description:
      "How {{shop_name}} collects, uses and protects your personal data under Hong Kong's Personal Data (Privacy) Ordinance (Cap. 486).",
    body: `{{shop_name}} collects only the personal data we need to run our shop and deliver your orders. This policy explains what we collect, why, how long we keep it and your rights under the Personal Data (Privacy) Ordinance (Cap. 486).

## What we collect

- Account details: your e-mail address, your password in securely hashed form (we never store it in readable form) and your preferred language.
- Order details: your name, e-mail address and phone number, the items you ordered, prices, currency and any notes you add.
- Shipping address: the delivery address you give at checkout.
- Payment receipts: the screenshot or file of your FPS or bank transfer confirmation. Receipts are stored privately, never published, and can be seen only by you and our shop staff.
- Sign-in records: the time and IP address of your most recent sign-in and the approximate country and city derived from it, to help protect your account.
- Country from your IP address: used to choose a default display currency. We do not use it to track your precise location.
- Page views: we count which pages are visited on our own server. We do not use third-party analytics, advertising trackers or social media pixels.

## Cookies

We use only the cookies the shop needs to work: a session cookie that keeps you signed in and remembers your cart, and cookies that remember your language and currency. We do not use advertising or tracking cookies.

## Why we use your data

- To process and deliver your orders, including verifying your payment.
- To contact you about your orders, returns, refunds and support requests.
- To keep your account and our shop secure and to prevent fraud.
- To show prices in a suitable currency and to learn which pages are useful, so we can improve the shop.
- To meet our legal and accounting obligations.

## Who we share it with

We give your name, phone number and delivery address to SF Express or the courier delivering your order, only as far as needed to deliver it. We may disclose data when required by Hong Kong law, a court or a law enforcement authority. We do not sell, rent or trade your personal data, and we do not use it for direct marketing without your consent.

## How long we keep it

- Order records and payment receipts: 7 years from the order date, as Hong Kong tax law requires for business records.
- Account details: for as long as your account is open. If you ask us to close your account, we delete or anonymise its details within 30 days, except order records we must keep.
- Sign-in and security records: only as long as needed for security, and no longer than 12 months.
- Page view statistics: up to 24 months, used only in aggregate.

## How we protect it

Order data and payment receipts are kept on secured servers, and only staff who need them for their work can access them. Payment receipts are never available through a public link.

## Your rights

Under the Personal Data (Privacy) Ordinance (Cap. 486), you have the right to ask whether we hold personal data about you, to request a copy of it, and to ask us to correct any data that is inaccurate.

We respond to data access and correction requests within 40 days. We may charge a reasonable fee for a copy of your data and will tell you the amount first. You can also ask us to close your account. If you have concerns about how we handle your personal data, you may complain to the Office of the Privacy Commissioner for Personal Data.

## Data access and correction requests

To access or correct your personal data, or with any question about this policy, e-mail {{support_email}} with the subject 'Personal data request', or write to: Privacy Officer, {{shop_name}}, {{address}}.

To protect your data, we may ask you to confirm your identity before we act on a request.`,
  },
  terms: {
    title: "Terms of Service",
    description:
      "The terms for buying from {{shop_name}}: adults 18+ only, prices in HKD, GBP, EUR or USD, orders confirmed on payment verification, HKSAR law.",
    body: `These terms apply to every order placed on the {{shop_name}} website. By creating an account or placing an order, you agree to them, so please read them carefully.

## About us

{{shop_name}} is an airsoft shop at {{address}}. You can reach us at {{support_email}}.

## Age requirement

You must be at least 18 years old to create an account or buy from us. By placing an order you confirm that you are 18 or over. We may ask for proof of age at any time, including at pickup or delivery, and may cancel and refund an order if it is not provided.

## Prices and currencies

- Prices are shown in HKD, GBP, EUR or USD. We set the price in each currency ourselves; they are not live exchange-rate conversions.
- Your order is charged in the currency selected at checkout, and its total, including any shipping fee, is fixed when you place the order.
- Prices include everything we charge. Import duties, taxes and customs fees on overseas deliveries are paid by the buyer.
- We may change prices at any time; changes do not affect orders already placed. If a price is clearly wrong because of an error, we may cancel the order and refund any payment in full.

## Orders and payment

Placing an order is an offer to buy. Payment is by FPS (Faster Payment System) or bank transfer, and you must upload your payment receipt on the order page. An order is confirmed only after we have verified that the full payment has reached our account, which usually takes 1 to 2 business days.

If we cannot verify your payment, we will tell you why and you may upload a new receipt. Orders that remain unpaid may be cancelled. We may refuse or cancel any order, for example if we suspect fraud or cannot deliver to the address given; any payment received will then be refunded in full.

## Stock availability

Stock levels on the website are updated regularly but are not guaranteed until your order is confirmed. If an item sells out before we verify your payment, we will contact you and offer a similar item, a wait for restock or a full refund for that item.

## Legal compliance

- Every airsoft gun we sell is tested to have a muzzle energy below 2 joules, in line with the Firearms and Ammunition Ordinance (Cap. 238) of Hong Kong.
- You must not modify, upgrade or tune any gun to exceed 2 joules. An airsoft gun above this limit is treated as a firearm and requires a licence.
- Carry airsoft guns in a closed bag or case in public, and never display them or point them at anyone in a public place.
- If you order for delivery outside Hong Kong, you are responsible for making sure the items are legal to import, own and use in your country.
- We may refuse to sell to anyone we reasonably believe intends to misuse our products.

## Limitation of liability

Airsoft guns must be used with suitable eye and face protection and only in appropriate places such as dedicated airsoft fields. We are not responsible for injury, loss or damage caused by misuse, unsafe handling, modification, or use contrary to the law or the manufacturer's instructions.

To the extent permitted by law, our total liability for any order is limited to the amount you paid for it, and we are not liable for indirect or consequential loss. Nothing in these terms limits rights you have that cannot be excluded under Hong Kong law, including under the Sale of Goods Ordinance (Cap. 26) and the Control of Exemption Clauses Ordinance (Cap. 71).

## Changes to these terms

We may update these terms from time to time. The version shown on this page when you place an order applies to that order.

## Governing law

These terms and every order are governed by the laws of the Hong Kong Special Administrative Region (HKSAR). Any dispute is subject to the non-exclusive jurisdiction of the courts of the HKSAR.

If the English and Chinese versions of these terms differ, the English version prevails.`,
  },
};

const zh: Record<ContentPageSlug, ContentPageText> = {
  shipping: {
    title: "送貨資訊",
    description:
      "付款核實後48小時內處理及寄出。訂單滿{{free_shipping_above}}以上免運費，否則統一收取運費{{shipping_fee}}。香港本地由順豐速運或速遞公司送遞。",
    body: `每張訂單都由我們在觀塘門市親手包裝。以下說明每個步驟所需的時間、運費，以及我們可以把裝備寄到哪裏。

## 處理時間

你以轉數快或銀行轉帳付款並上載收據後，我們的職員會把收據與銀行紀錄逐一核對。核實需時1至2個工作天；於星期日或公眾假期上載的收據，會在下一個工作天處理。

付款一經核實，我們會在48小時內處理及寄出訂單。所有氣槍在包裝前均經檢查，並以測速器測試，確保你收貨即用，而且符合香港法例的上限。

## 香港本地送貨

本地訂單由順豐速運或其他速遞公司送到你的地址，或送往順豐服務點或智能櫃。大部分訂單會在付款核實後48小時內送達；離島及偏遠地區或需多一天。

速遞員派件時或會核對收件人姓名及電話號碼，結帳時請確保兩者正確無誤。

## 運費

- 訂單貨品總額（以訂單貨幣計）高於{{free_shipping_above}}即免運費。
- 其他訂單統一收取運費{{shipping_fee}}。
- 落單前，購物車及結帳頁面會清楚列出運費。

## 海外送貨

不少國家限制甚至禁止進口氣槍，大部分速遞公司亦不接受國際寄送氣槍。因此，我們只會在當地法例及承運商均許可的情況下寄出氣槍。如未能把氣槍寄往你所在的國家，我們會在處理訂單前聯絡你，並全數退回該貨品的款項。

配件、零件及戰術裝備，例如戰術背心、雜物袋、槍套、手套及服裝，可寄往大部分國家。

氣罐及鋰電池屬危險品，不能空運，因此只限香港本地送貨或門市自取。

目的地國家的進口關稅、稅項及清關費用由買家支付。海外送貨所需時間視乎目的地及清關情況而定。

## 追蹤訂單

包裹寄出後，我們會把追蹤編號電郵給你，並把訂單狀態更新為「已寄出」。你亦可登入帳戶，在訂單內查看追蹤編號。

如追蹤紀錄連續3個工作天沒有更新，或包裹送達時已經損壞，請連同訂單編號聯絡我們，我們會向速遞公司跟進。`,
  },
  returns: {
    title: "退貨及退款",
    description: "未使用並保留原包裝的貨品可於7日內退貨。到貨即壞的貨品可獲維修、更換或退款。退款以銀行轉帳退回。",
    body: `我們希望你對買到的裝備稱心滿意。如有任何問題，可按以下條件辦理退貨。

## 7日退貨

未使用的貨品可於送達後7日內退貨，但必須保留原包裝，並附齊所有配件、說明書及彈匣。貨品須保持可重新出售的狀態：未曾試射、未曾入氣，亦沒有因安裝而留下痕跡。

如因改變主意而退貨，退貨運費由買家負責，原有運費亦不獲退還。

## 到貨即壞

如貨品送達時已經損壞或無法正常運作，請於送達後48小時內通知我們，並提供訂單編號、問題簡述，以及能顯示問題的相片或影片。

我們會安排收回貨品或請你帶到門市，檢查後為你維修、更換，或全數退款（包括運費）。損壞貨品的退貨運費由我們負責。

## 如何申請退貨

- 電郵至 {{support_email}}，註明訂單編號、要退回的貨品及退貨原因。
- 請待我們回覆退貨指示後才寄回貨品。未經聯絡便寄回的包裹，處理可能會有延誤，甚至被拒收。
- 以原包裝妥善包好貨品，以可追蹤的方式寄回門市，或於營業時間內親臨交回。
- 我們會在收到退貨後2個工作天內完成檢查，並以電郵通知你結果。

## 退款

退款一經批核，會在5個工作天內以銀行轉帳存入你提供的帳戶，並以原訂單的貨幣計算。

我們不收取任何退款手續費；但如你的銀行就接收海外匯款另收費用，則非我們所能控制。

## 不設退貨的貨品

- 已使用或已開封的氣體及BB彈。
- 已開封的消耗品，例如電池、潤滑油、矽油、O型圈及清潔用品。
- 經買家或第三方改裝、升級、拆開或維修的貨品。
- 因使用不當、跌撞、使用不合適的BB彈或氣體，或錯用電池而損壞的貨品。`,
  },
  faq: {
    title: "常見問題",
    description: "有關香港氣槍法例、轉數快付款、付款核實、貨幣、訂單狀態、海外送貨、保養及門市自取的常見問題解答。",
    body: `以下是客人最常問的問題。如在這裏找不到答案，歡迎電郵至 {{support_email}} 查詢。

## 在香港購買氣槍

### 在香港玩氣槍合法嗎？

合法，但必須符合法例規定。根據《火器及彈藥條例》（第238章），槍口射出能量超過2焦耳的氣槍會被視為槍械，須領有牌照。我們出售的每支氣槍均經測試，確保低於2焦耳。切勿自行改裝令氣槍超出此上限；在公眾地方攜帶時，亦應把氣槍放在袋或槍箱內。

### 一定要年滿18歲才可購買嗎？

是的。我們只會把氣槍及裝備售予年滿18歲的人士。落單即表示你確認已年滿18歲；你自取或收貨時，我們或會要求查看身份證明文件。

## 付款

### 如何用轉數快付款及上載收據？

落單後，訂單頁面會顯示我們的轉數快識別碼、銀行帳戶資料及應付金額。請透過銀行App轉帳全數金額，並盡量在參考或備註欄填上訂單編號。完成後，把轉帳確認畫面截圖，在訂單頁面上載（接受JPG、PNG或WebP格式）。

### 核實付款需要多久？

上載收據後1至2個工作天。我們會人手把每張收據與銀行紀錄逐一核對。如資料不符，例如金額不足，我們會告訴你原因，你可以重新上載收據。

### 可以用哪些貨幣付款？

網站價格可以港元（HKD）、英鎊（GBP）、歐元（EUR）或美元（USD）顯示，你可在頁面頂部的選單切換。各貨幣的價格由我們自行訂定，並非按即時匯率換算，訂單會以你結帳時所選的貨幣收費。轉數快只適用於港元付款；英鎊、歐元及美元訂單請按訂單頁面上的資料以銀行轉帳付款。任何銀行或匯款手續費均由付款人承擔。

## 你的訂單

### 如何查看訂單狀態？

登入帳戶即可查看每張訂單及其狀態：待付款、已付款、處理中、已寄出、已送達或已取消。訂單寄出後，我們會立即把追蹤編號電郵給你。

### 可以修改或取消訂單嗎？

在付款核實之前，請電郵告知訂單編號，我們可以為你更改貨品或送貨地址，或取消訂單。訂單一旦開始處理或已寄出便無法修改，但未使用的貨品仍可按7日退貨政策退回。

## 送貨及售後服務

### 有海外送貨服務嗎？

配件、零件及戰術裝備可寄往大部分國家。由於不少國家禁止或限制氣槍入口，大部分速遞公司亦拒收，我們只會在當地法例及承運商均許可的情況下寄出氣槍。氣體及電池只限香港本地送貨。詳情請參閱送貨資訊頁面。

### 貨品有保養嗎？

氣槍由送達日起享有30日門市保養，涵蓋正常使用下出現的生產問題，但不包括易損零件、跌撞造成的損壞、使用劣質BB彈或不合適氣體引致的問題，以及經我們以外人士改裝或拆開的氣槍。到貨即壞的貨品會按退貨政策處理。

### 可以到門市自取嗎？

可以。結帳時請在訂單備註填寫「門市自取」。付款核實後，貨品準備好時（通常在48小時內）我們會電郵通知你，你便可於營業時間（星期一至六，中午12時至晚上8時）到觀塘門市取貨。取貨時請帶備訂單編號及附有相片的身份證明文件。如訂單已收取運費，我們會在你取貨時退回。`,
  },
  contact: {
    title: "聯絡我們",
    description: "歡迎親臨{{shop_name}}觀塘門市，或電郵至 {{support_email}}。營業時間為星期一至六，中午12時至晚上8時。",
    body: `對產品、訂單或維修有任何疑問？歡迎親臨門市或電郵聯絡我們，同是玩家的職員會盡快回覆你。

## 門市地址

{{shop_name}}

{{address}}

門市距離港鐵觀塘站只需步行數分鐘，請乘升降機到8樓。

## 營業時間

八號或以上熱帶氣旋警告信號或黑色暴雨警告生效期間，門市亦會暫停營業。

- 星期一至六：中午12時至晚上8時
- 星期日及公眾假期：休息

## 電郵

{{support_email}}

我們會在1個工作天內回覆；於營業時間內收到的電郵，通常即日回覆。星期日或公眾假期收到的電郵，會在下一個工作天回覆。

## 查詢時請提供以下資料，方便我們盡快回覆

- 訂單編號（如查詢與訂單有關）
- 產品名稱或連結
- 如貨品損壞或未能正常運作，請附上相片或短片
- 如查詢付款事宜，請提供轉帳日期、金額及貨幣`,
  },
  privacy: {
    title: "私隱政策",
    description: "{{shop_name}}如何根據香港《個人資料（私隱）條例》（第486章）收集、使用及保護你的個人資料。",
    body: `{{shop_name}}只會收集經營網店及處理訂單所需的個人資料。本政策說明我們收集哪些資料、用途、保存期限，以及你根據《個人資料（私隱）條例》（第486章）享有的權利。

## 我們收集的資料

- 帳戶資料：你的電郵地址、經安全雜湊處理的密碼（我們絕不會以可讀形式儲存密碼），以及你的語言偏好。
- 訂單資料：你的姓名、電郵地址、電話號碼、所訂購的貨品、價格、貨幣，以及你填寫的備註。
- 送貨地址：你在結帳時提供的送貨地址。
- 付款收據：你上載的轉數快或銀行轉帳確認截圖或檔案。收據以私密方式儲存，絕不公開，只有你本人及本店職員可以查看。
- 登入紀錄：你最近一次登入的時間及IP地址，以及據此推斷的大概國家及城市，用以保障帳戶安全。
- 由IP地址推斷的國家：用作選擇預設顯示的貨幣。我們不會以此追蹤你的確實位置。
- 瀏覽紀錄：我們在自己的伺服器上統計各頁面的瀏覽次數，不使用任何第三方分析工具、廣告追蹤器或社交媒體像素。

## Cookie

我們只使用網店運作所必需的Cookie：一個讓你保持登入並記住購物車內容的工作階段Cookie，以及記住你所選語言及貨幣的Cookie。我們不使用任何廣告或追蹤Cookie。

## 資料用途

- 處理及送遞你的訂單，包括核實付款。
- 就訂單、退貨、退款及客戶查詢與你聯絡。
- 保障你的帳戶及網店安全，並防止欺詐。
- 以合適的貨幣顯示價格，並了解哪些頁面對客人有用，以改善網店。
- 履行法律及會計方面的責任。

## 資料披露

我們只會在送貨所需的範圍內，向順豐速運或負責送貨的速遞公司提供你的姓名、電話號碼及送貨地址。如香港法例、法院或執法機關有所要求，我們或須披露有關資料。我們不會出售、出租或交換你的個人資料，未經你同意亦不會把資料用於直接促銷。

## 資料保存期限

- 訂單紀錄及付款收據：按香港稅務法例對業務紀錄的要求，由訂單日期起保存7年。
- 帳戶資料：在帳戶存續期間保存。如你要求關閉帳戶，我們會在30日內刪除有關資料或作匿名處理，但依法須保留的訂單紀錄除外。
- 登入及保安紀錄：只在保安所需期間保存，最長不超過12個月。
- 瀏覽統計：最長保存24個月，只作整體統計用途。

## 資料保安

訂單資料及付款收據儲存在受保護的伺服器上，只有工作上需要的職員方可存取。付款收據絕不會透過公開連結提供。

## 你的權利

根據《個人資料（私隱）條例》（第486章），你有權查詢我們是否持有你的個人資料、索取有關資料的副本，以及要求我們更正任何不準確的資料。

我們會在收到查閱或更正資料要求後40日內回覆。提供資料副本時，我們或會收取合理費用，並會事先告知金額。你亦可要求我們關閉帳戶。如對我們處理個人資料的方式有疑慮，你可以向個人資料私隱專員公署投訴。

## 查閱及更正資料要求

如要查閱或更正你的個人資料，或對本政策有任何疑問，請電郵至 {{support_email}}，並在主旨註明「個人資料要求」；或致函{{address}}{{shop_name}}私隱事務主任收。

為保障你的資料，我們在處理要求前或會請你核實身份。`,
  },
  terms: {
    title: "服務條款",
    description:
      "在{{shop_name}}購物的條款：只限18歲或以上人士、以港元、英鎊、歐元或美元標價、付款核實後確認訂單，並受香港特別行政區法律管轄。",
    body: `本條款適用於在{{shop_name}}網站下的所有訂單。建立帳戶或落單，即表示你同意本條款，請細閱。

## 關於我們

{{shop_name}}是一間氣槍店，位於{{address}}。你可電郵至 {{support_email}} 與我們聯絡。

## 年齡要求

你必須年滿18歲方可建立帳戶或向我們購物。落單即表示你確認已年滿18歲。我們可隨時要求你出示年齡證明，包括在自取或收貨時；如未能出示，我們可取消訂單並退還款項。

## 價格及貨幣

- 價格以港元、英鎊、歐元或美元顯示。各貨幣的價格由我們自行訂定，並非按即時匯率換算。
- 訂單以結帳時所選的貨幣收費，訂單總額（包括運費）在落單時即已確定。
- 價格已包括我們收取的所有費用。海外送貨涉及的進口關稅、稅項及清關費用由買家支付。
- 我們可隨時調整價格，但不會影響已落的訂單。如價格因明顯錯誤而標示不當，我們可取消訂單並全數退還已付款項。

## 訂單及付款

落單即表示你提出購買要約。付款方式為轉數快（FPS）或銀行轉帳，並須在訂單頁面上載付款收據。我們核實全數款項已存入本店帳戶後，訂單方告確認，一般需時1至2個工作天。

如未能核實付款，我們會告知原因，你可重新上載收據。逾期未付款的訂單或會被取消。我們亦可拒絕或取消任何訂單，例如懷疑涉及欺詐或無法送貨到所提供的地址；屆時已收款項將全數退還。

## 存貨

網站上的存貨數量會定期更新，但在訂單確認前不作保證。如貨品在我們核實付款前售罄，我們會聯絡你，讓你選擇相近貨品、等候補貨，或全數退回該貨品的款項。

## 遵守法例

- 我們出售的每支氣槍均經測試，槍口射出能量低於2焦耳，符合香港《火器及彈藥條例》（第238章）的規定。
- 你不得改裝、升級或調校任何氣槍，令其超過2焦耳。超過此上限的氣槍會被視為槍械，須領有牌照。
- 在公眾地方攜帶氣槍時，必須放在密封的袋或槍箱內，切勿在公眾地方展示氣槍或以氣槍指向任何人。
- 如訂單送往香港以外地方，你須自行確保有關貨品在當地可合法進口、擁有及使用。
- 如我們有合理理由相信買家有意不當使用產品，我們可拒絕出售。

## 責任限制

使用氣槍時必須配戴合適的護目鏡及面部保護裝備，並只可在合適地方（例如專用的氣槍場）使用。因不當使用、不安全操作、改裝，或違反法例或生產商指示使用而引致的任何傷害、損失或損毀，本店概不負責。

在法律許可的範圍內，我們就任何訂單承擔的總責任，以你就該訂單支付的金額為限，我們亦不會就任何間接或相應而生的損失負責。本條款並不限制你根據香港法例享有而不能被豁除的權利，包括《貨品售賣條例》（第26章）及《管制免責條款條例》（第71章）下的權利。

## 條款修訂

我們可不時修訂本條款。你落單時本頁所載的版本，適用於該訂單。

## 管轄法律

本條款及所有訂單均受香港特別行政區法律管轄。任何爭議均受香港特別行政區法院的非專屬司法管轄權管轄。

本條款的中英文版本如有任何歧異，概以英文版本為準。`,
  },
};

/** A page's default text in a language. */
export function defaultContentPage(slug: ContentPageSlug, language: "en" | "zh"): ContentPageText {
  return { en, zh }[language][slug];
}

/** Narrows a route parameter to a known content page slug. */
export function isContentPageSlug(value: string): value is ContentPageSlug {
  return (CONTENT_PAGES as readonly string[]).includes(value);
}

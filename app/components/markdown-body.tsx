/** Typography for HTML rendered from Markdown (blog posts, policy pages). */
const BODY_CLASSES = [
  "leading-relaxed text-stone-800",
  "[&_p]:mb-4",
  "[&_h2]:mt-8 [&_h2]:mb-3 [&_h2]:text-2xl [&_h2]:font-semibold",
  "[&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:text-xl [&_h3]:font-semibold",
  "[&_h4]:mt-4 [&_h4]:mb-2 [&_h4]:font-semibold",
  "[&_a]:text-brand-700 [&_a]:underline",
  "[&_ul]:mb-4 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mb-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mb-1",
  "[&_blockquote]:mb-4 [&_blockquote]:border-l-4 [&_blockquote]:border-brand-500 [&_blockquote]:pl-4 [&_blockquote]:italic",
  "[&_code]:rounded [&_code]:bg-stone-100 [&_code]:px-1 [&_code]:text-sm",
  "[&_pre]:mb-4 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-stone-100 [&_pre]:p-4 [&_pre_code]:p-0",
  "[&_img]:my-4 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg",
  "[&_hr]:my-8 [&_hr]:border-stone-200",
  "[&_table]:mb-4 [&_table]:w-full [&_table]:border-collapse [&_table]:text-sm",
  "[&_th]:border [&_th]:border-stone-300 [&_th]:bg-stone-50 [&_th]:p-2 [&_td]:border [&_td]:border-stone-300 [&_td]:p-2",
].join(" ");

/** HTML from `renderMarkdown` (app/lib/markdown.server.ts), which sanitises it with a strict allow-list. */
export function MarkdownBody({ html, className = "" }: { html: string; className?: string }) {
  return (
    <div
      className={`${BODY_CLASSES} ${className}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown sanitises with a strict allow-list (no scripts, styles, handlers or frames)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

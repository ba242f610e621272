/** The shop's mark (the crosshair beside its name): the header's logo, and the printed documents'. */
export function ShopMark({ className = "h-8 w-8 shrink-0" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={className}>
      <circle cx="16" cy="16" r="14" fill="none" stroke="currentColor" strokeWidth="2.5" />
      <path d="M16 4v8M16 20v8M4 16h8M20 16h8" stroke="currentColor" strokeWidth="2.5" />
      <circle cx="16" cy="16" r="2.5" fill="#a3b86c" />
    </svg>
  );
}

/**
 * A small decorative picture in a list (a product, a post, an order line), loaded lazily, or a
 * grey box of the same size when there is no image.
 */
export function Thumbnail({
  src,
  width,
  height,
  className,
  placeholder = "bg-stone-200",
}: {
  src: string | null;
  width: number;
  height: number;
  /** Size and shape, shared by the picture and the box. */
  className: string;
  placeholder?: string;
}) {
  return src ? (
    <img src={src} alt="" width={width} height={height} loading="lazy" className={`${className} object-cover`} />
  ) : (
    <div className={`${className} ${placeholder}`} aria-hidden="true" />
  );
}

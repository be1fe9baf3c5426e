import Wardrobe

/// A garment colour drawn as a small round swatch beside its name, on the gallery's cards,
/// its colour filter and the image page. The swatch is a class per palette name (the style
/// sheet's `swatch-navy`, in `StaticAssets`), since the pages allow no inline style; a
/// stored name outside the palette (written by another program) gets a plain swatch.
enum Swatch {
    /// The swatch of `colour`, titled with it and with who gave it.
    static func html(_ colour: String, byPerson: Bool = false) -> HTML {
        let kind = ColourSetter.names.contains(colour) ? "swatch swatch-" + colour : "swatch"
        let title = byPerson ? "\(colour) (set by a person)" : colour
        return "<span class=\"\(text: kind)\" title=\"\(text: title)\" aria-label=\"\(text: title)\"></span>"
    }
}

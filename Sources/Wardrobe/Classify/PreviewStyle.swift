import Imaging

/// How pictures are drawn on a terminal (24-bit colour, the 256-colour
/// palette, or plain shading characters): Imaging's `TerminalStyle`, named
/// here so that the executable needs no module but Wardrobe.
public typealias PreviewStyle = TerminalStyle

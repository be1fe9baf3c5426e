import Imaging

/// The image formats every command reads, named once for help texts, so that no command's
/// help lists fewer formats than the decoder reads.
public enum ReadableFormats {
    /// "JPEG, PNG, HEIF, AVIF or WebP".
    public static let names = ImageFormat.names(joinedBy: "or")
}

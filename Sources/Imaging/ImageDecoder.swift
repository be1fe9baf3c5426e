/// What a header says before any pixel is decoded.
public struct ImageHeader: Sendable, Equatable {
    public var format: ImageFormat
    /// As stored, before orientation.
    public var storedWidth: Int
    public var storedHeight: Int
    public var orientation: Orientation
    /// TurboJPEG's colour space of a JPEG, so decoding need not read the header twice.
    var jpegColorspace: Int32 = 0
    /// Frames of an animated WebP, or top-level images of a HEIF file; the first (the
    /// primary) is the one decoded.
    public var frameCount = 1
    /// When the photo was taken, as its EXIF says; nil when it does not.
    public var captureTime: CaptureTime?

    /// As a viewer shows it, after orientation.
    public var width: Int { orientation.swapsSides ? storedHeight : storedWidth }
    public var height: Int { orientation.swapsSides ? storedWidth : storedHeight }
}

/// A decoded image, upright.
public struct DecodedImage: Sendable {
    public var format: ImageFormat
    /// The pixels, orientation applied; possibly reduced by `scale`.
    public var bitmap: Bitmap
    public var orientation: Orientation
    /// The full image's size, orientation applied.
    public var width: Int
    public var height: Int
    /// The reduction the decode made: JPEG's DCT scaling, WebP's scaled decoding or a HEIF
    /// file's embedded thumbnail (1/1 when the whole image was decoded).
    public var scale: ScalingFactor
    /// As in the header: more than one means only the first frame (the primary image) is here.
    public var frameCount = 1
    /// As in the header.
    public var captureTime: CaptureTime?
}

/// Turns image bytes into upright pixels: sniffs the format, checks the limits against the
/// header, decodes (JPEG at the smallest DCT scale that is still large enough), composites
/// transparency over `background` and applies the orientation (EXIF, or for HEIF and AVIF
/// the container's own). HEIF, AVIF and WebP have codecs of their own (`HEIFCodec`,
/// `WebPCodec`), which this type only dispatches to.
public struct ImageDecoder: Sendable {
    public var limits: ImageLimits
    /// What transparent PNG pixels are drawn over: RGB.
    public var background: [UInt8]

    public init(limits: ImageLimits = .default, background: [UInt8] = [255, 255, 255]) {
        precondition(background.count == 3, "the background is an RGB colour")
        self.limits = limits
        self.background = background
    }

    /// The header of `bytes`: format, stored size, orientation. Checks nothing against limits.
    public func header(of bytes: [UInt8]) throws(ImagingError) -> ImageHeader {
        try header(of: bytes, using: nil)
    }

    private func header(of bytes: [UInt8], using decompressor: Decompressor?) throws(ImagingError) -> ImageHeader {
        switch try Self.format(of: bytes) {
        case .jpeg:
            let header = try JPEGCodec.header(bytes, using: try decompressor.orNew())
            return ImageHeader(format: .jpeg, storedWidth: header.width, storedHeight: header.height,
                               orientation: Exif.orientation(inJPEG: bytes) ?? .up, jpegColorspace: header.colorspace,
                               captureTime: Exif.captureTime(inJPEG: bytes))
        case .png:
            let size = try Self.pngSize(bytes)
            return ImageHeader(format: .png, storedWidth: size.width, storedHeight: size.height,
                               orientation: Exif.orientation(inPNG: bytes) ?? .up, captureTime: Exif.captureTime(inPNG: bytes))
        case .heif, .avif:
            return try HEIFCodec(format: try Self.format(of: bytes), limits: limits, background: background).header(of: bytes)
        case .webp:
            return try WebPCodec(limits: limits, background: background).header(of: bytes)
        }
    }

    /// Decodes `bytes`. With `minimumSide`, a JPEG is decoded at the smallest DCT scale whose
    /// longest side is still at least that many pixels; without it, at full size.
    public func decode(_ bytes: [UInt8], minimumSide: Int? = nil) throws(ImagingError) -> DecodedImage {
        switch ImageFormat.sniff(bytes) {
        case .heif, .avif:
            return try HEIFCodec(format: try Self.format(of: bytes), limits: limits, background: background)
                .decode(bytes, minimumSide: minimumSide)
        case .webp:
            return try WebPCodec(limits: limits, background: background).decode(bytes, minimumSide: minimumSide)
        case .jpeg, .png, nil:
            break
        }
        let decompressor = ImageFormat.sniff(bytes) == .jpeg ? try Decompressor() : nil
        let header = try header(of: bytes, using: decompressor)
        try limits.check(width: header.storedWidth, height: header.storedHeight, format: header.format)
        let stored: Bitmap
        var scale = ScalingFactor.one
        switch header.format {
        case .jpeg:
            let jpegHeader = JPEGCodec.Header(width: header.storedWidth, height: header.storedHeight,
                                              colorspace: header.jpegColorspace)
            if let minimumSide {
                scale = JPEGCodec.scalingFactor(width: header.storedWidth, height: header.storedHeight, minimumSide: minimumSide)
            }
            try JPEGCodec.checkMemory(bytes, header: jpegHeader, factor: scale, limits: limits)
            stored = try JPEGCodec.decode(bytes, header: jpegHeader, factor: scale, using: try decompressor.orNew())
        case .png:
            stored = try PNGCodec.decode(bytes, limits: limits, background: background)
        case .heif, .avif, .webp:
            preconditionFailure("decoded by their own codecs above")
        }
        return DecodedImage(format: header.format, bitmap: stored.applying(header.orientation),
                            orientation: header.orientation, width: header.width, height: header.height, scale: scale,
                            captureTime: header.captureTime)
    }

    /// Reads and decodes a file; errors name the file.
    public func decode(contentsOf path: String, minimumSide: Int? = nil) throws(ImagingError) -> DecodedImage {
        do {
            return try decode(try ImageFile.read(path), minimumSide: minimumSide)
        } catch {
            throw error.path == nil ? error.naming(path) : error
        }
    }

    static func format(of bytes: [UInt8]) throws(ImagingError) -> ImageFormat {
        if bytes.isEmpty { throw ImagingError(.empty, "empty file (0 bytes)") }
        if let format = ImageFormat.sniff(bytes) { return format }
        let signatures: [[UInt8]] = [[0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]]
        if signatures.contains(where: { $0.count > bytes.count && $0.starts(with: bytes) }) {
            throw ImagingError(.truncated, "truncated: only \(bytes.count) bytes of an image signature")
        }
        if let other = ImageFormat.otherFormatName(bytes) {
            throw ImagingError(.notAnImage, "unsupported image format \(other) (\(ImageFormat.names(joinedBy: "and")) are read)")
        }
        throw ImagingError(.notAnImage, "not an image: content is not \(ImageFormat.names(joinedBy: "or"))")
    }

    /// Width and height from the IHDR chunk, which must come first.
    static func pngSize(_ bytes: [UInt8]) throws(ImagingError) -> (width: Int, height: Int) {
        guard bytes.count >= 24 else { throw ImagingError(.truncated, "truncated PNG: the file ends inside the header") }
        guard bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else { throw ImagingError(.corrupt, "corrupt PNG: IHDR is not the first chunk") }
        func u32(_ offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        }
        let width = u32(16), height = u32(20)
        guard width > 0, height > 0 else { throw ImagingError(.corrupt, "corrupt PNG: a side of 0 pixels") }
        return (width, height)
    }
}

extension Optional where Wrapped == Decompressor {
    /// The handle given, or a new one.
    func orNew() throws(ImagingError) -> Decompressor {
        if let self { return self }
        return try Decompressor()
    }
}

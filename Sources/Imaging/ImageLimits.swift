/// How large an image may be before it is decoded. Checked against the header alone, so a
/// decompression bomb (a small file announcing a huge image) is refused without decoding.
public struct ImageLimits: Sendable, Equatable {
    /// Largest width or height accepted.
    public var maxDimension: Int
    /// Largest width times height accepted.
    public var maxPixels: Int

    public static let `default` = ImageLimits(maxDimension: 32_768, maxPixels: 100_000_000)

    public init(maxDimension: Int = 32_768, maxPixels: Int = 100_000_000) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
    }

    func check(width: Int, height: Int, format: ImageFormat) throws(ImagingError) {
        if width > maxDimension || height > maxDimension {
            throw ImagingError(.tooLarge, "\(format.rawValue) image of \(width)x\(height) pixels exceeds the limit of \(maxDimension) pixels per side")
        }
        if width * height > maxPixels {
            throw ImagingError(.tooLarge, "\(format.rawValue) image of \(width)x\(height) pixels (\(Self.megapixels(width * height))) exceeds the limit of \(Self.megapixels(maxPixels))")
        }
    }

    /// Bytes one decode may hold: the largest image allowed, as 8-bit RGB. A decoder that keeps
    /// more per pixel than that, whatever size it outputs, reaches it with fewer pixels.
    public var maxDecoderBytes: Int { maxPixels * 3 }

    /// Refuses an image whose decode would hold more than `maxDecoderBytes` at once: `bytes`
    /// is the decoder's own buffers and the pixels it hands over together, worked out from
    /// the headers before decoding. `image` names the kind of image ("progressive JPEG"),
    /// `holder` says what needs the memory.
    func checkDecoderMemory(_ bytes: Int, image: String, width: Int, height: Int, holder: String) throws(ImagingError) {
        guard bytes > maxDecoderBytes else { return }
        throw ImagingError(.tooLarge, "\(image) of \(width)x\(height) pixels needs ~\(Self.megabytes(bytes)) MB to decode, "
                           + "over the \(Self.megabytes(maxDecoderBytes)) MB limit: \(holder)")
    }

    static func megabytes(_ bytes: Int) -> Int {
        (bytes + 500_000) / 1_000_000
    }

    static func megapixels(_ pixels: Int) -> String {
        let tenths = (pixels + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) megapixels"
    }
}

/// A JPEG DCT scaling factor, numerator over denominator (1/8 to 1/1 here).
public struct ScalingFactor: Sendable, Equatable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public static let one = ScalingFactor(numerator: 1, denominator: 1)

    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// A side after scaling, rounded up as libjpeg does.
    public func scale(_ side: Int) -> Int {
        (side * numerator + denominator - 1) / denominator
    }

    public var description: String { "\(numerator)/\(denominator)" }
}

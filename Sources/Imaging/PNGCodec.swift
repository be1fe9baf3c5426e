import CPNGSupport

/// libpng through the CPNGSupport shim, which keeps libpng's longjmp in C. No length
/// field in a file makes it allocate more than the file holds: chunk lengths are checked
/// against the file's size first, and libpng allocates through an account capped by the
/// file's size and the side limit. The pixels are bounded by the pixel limit.
public enum PNGCodec {
    static func decode(_ bytes: [UInt8], limits: ImageLimits, background: [UInt8]) throws(ImagingError) -> Bitmap {
        var peak = 0
        return try decode(bytes, limits: limits, background: background, peakBytes: &peak)
    }

    /// The most libpng may allocate for a file of `fileSize` bytes under `limits`; the
    /// decoded pixels (at most `limits.maxPixels` times 4 bytes) come on top.
    public static func libraryBudget(fileSize: Int, limits: ImageLimits) -> Int {
        Int(wr_png_library_budget(fileSize, UInt32(clamping: limits.maxDimension)))
    }

    /// Decodes, and sets `peakBytes` to the most the decode held at once (libpng's
    /// allocations and the decoded samples), whether it succeeded or not.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits, background: [UInt8],
                              peakBytes: inout Int) throws(ImagingError) -> Bitmap {
        var info = wr_png_info()
        var samples: UnsafeMutablePointer<UInt8>? = nil
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { data in
            wr_png_decode(data.baseAddress, data.count, UInt32(clamping: limits.maxDimension),
                          UInt64(limits.maxPixels), &info, &samples, &message, message.count)
        }
        defer { wr_png_free(samples) }
        peakBytes = Int(info.peak_bytes)
        switch Int(status) {
        case WR_PNG_OK:
            break
        case WR_PNG_TOO_LARGE:
            try limits.check(width: Int(info.width), height: Int(info.height), format: .png)
            throw ImagingError(.tooLarge, "png image of \(info.width)x\(info.height) pixels exceeds the limits")
        case WR_PNG_NO_MEMORY:
            throw ImagingError(.corrupt, "not enough memory to decode the png image")
        default:
            let text = ImagingError.libraryReason(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                                  otherwise: "libpng stopped without giving a reason")
            if text.contains("unexpected end of file") || text.contains("Not enough image data")
                || text.contains("past the end of the file") {
                throw ImagingError(.truncated, "truncated PNG: \(text)")
            }
            throw ImagingError(.corrupt, "corrupt PNG: \(text)")
        }
        guard let samples else { throw ImagingError(.corrupt, "corrupt PNG: no pixel data") }
        let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
        let decoded = UnsafeBufferPointer(start: samples, count: width * height * channels)
        switch channels {
        case 1, 3:
            return Bitmap(width: width, height: height, channels: channels, pixels: Array(decoded))
        case 2:
            return composite(decoded, width: width, height: height, colours: 1, over: [gray(of: background)])
        default:
            return composite(decoded, width: width, height: height, colours: 3, over: background)
        }
    }

    private static func gray(of rgb: [UInt8]) -> UInt8 {
        rgb.count == 1 ? rgb[0] : Bitmap.luma(rgb[0], rgb[1], rgb[2])
    }

    /// Straight (non-premultiplied) alpha blended over a solid background, in the stored
    /// (gamma-encoded) values, as browsers and image viewers do.
    private static func composite(_ samples: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                                  colours: Int, over background: [UInt8]) -> Bitmap {
        let stride = colours + 1
        var out = [UInt8](repeating: 0, count: width * height * colours)
        for i in 0..<(width * height) {
            let alpha = UInt32(samples[i * stride + colours])
            for c in 0..<colours {
                let foreground: UInt32 = UInt32(samples[i * stride + c]) * alpha
                let behind: UInt32 = UInt32(background[c]) * (255 - alpha)
                out[i * colours + c] = UInt8((foreground + behind + 127) / 255)
            }
        }
        return Bitmap(width: width, height: height, channels: colours, pixels: out)
    }
}

/// The colour types a PNG file can store, as `PNGEncoder.encode(samples:...)` writes them.
public enum PNGColorType: Int32, Sendable, CaseIterable {
    case gray = 0
    case rgb = 2
    case palette = 3
    case grayAlpha = 4
    case rgba = 6

    public var samplesPerPixel: Int {
        switch self {
        case .gray, .palette: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }
}

/// Writes PNG files: 8-bit gray and RGB from a bitmap, and any colour type and bit depth from
/// raw samples (which the tests use to prove the decoder reads them all).
public struct PNGEncoder: Sendable {
    /// zlib level 0...9.
    public var compressionLevel: Int

    public init(compressionLevel: Int = 6) {
        self.compressionLevel = compressionLevel
    }

    /// An 8-bit gray or RGB PNG of the bitmap.
    public func encode(_ bitmap: Bitmap) throws(ImagingError) -> [UInt8] {
        try encode(samples: bitmap.pixels, width: bitmap.width, height: bitmap.height,
                   colorType: bitmap.isGray ? .gray : .rgb, bitDepth: 8)
    }

    /// A PNG from raw samples, rows one after another: one byte per sample for bit depths
    /// 1 to 8 (values must fit the depth), two big-endian bytes per sample for depth 16.
    /// `palette` is RGB triples for `.palette`; `paletteAlpha` becomes its tRNS chunk.
    public func encode(samples: [UInt8], width: Int, height: Int, colorType: PNGColorType, bitDepth: Int,
                       interlaced: Bool = false, palette: [UInt8] = [], paletteAlpha: [UInt8] = []) throws(ImagingError) -> [UInt8] {
        let bytesPerSample = bitDepth == 16 ? 2 : 1
        let rowBytes = width * colorType.samplesPerPixel * bytesPerSample
        guard samples.count == rowBytes * height else {
            throw ImagingError(.encodingFailed, "PNG encoding failed: \(samples.count) sample bytes for a \(width)x\(height) image")
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = samples.withUnsafeBufferPointer { data in
            palette.withUnsafeBufferPointer { paletteBytes in
                paletteAlpha.withUnsafeBufferPointer { alphaBytes in
                    wr_png_encode(UInt32(width), UInt32(height), colorType.rawValue, Int32(bitDepth), interlaced ? 1 : 0,
                                  data.baseAddress, rowBytes,
                                  paletteBytes.baseAddress, Int32(palette.count / 3),
                                  alphaBytes.baseAddress, Int32(paletteAlpha.count),
                                  Int32(compressionLevel), &output, &size, &message, message.count)
                }
            }
        }
        defer { wr_png_free(output) }
        guard Int(status) == WR_PNG_OK, let output else {
            let text = ImagingError.libraryReason(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                                  otherwise: "libpng stopped without giving a reason")
            throw ImagingError(.encodingFailed, "PNG encoding failed: \(text)")
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

import CPNGSupport

/// libpng through the CPNGSupport shim, which keeps libpng's longjmp in C. No length
/// field in a file makes it allocate more than the file holds: chunk lengths are checked
/// against the file's size first, and libpng allocates through an account capped by the
/// file's size and the side limit. libpng delivers one row at a time (an Adam7 image pass
/// by pass), each composited and put in its place in the bitmap as it comes, so a decode
/// holds the bitmap (at most `maxDecoderBytes`: the pixel limit as RGB), a row and what
/// libpng allocates, whatever the file's colour type and bit depth.
public enum PNGCodec {
    static func decode(_ bytes: [UInt8], limits: ImageLimits, background: [UInt8]) throws(ImagingError) -> Bitmap {
        var peak = 0
        return try decode(bytes, limits: limits, background: background, peakBytes: &peak)
    }

    /// The most libpng may allocate for a file of `fileSize` bytes under `limits`; the
    /// decoded pixels (at most `limits.maxPixels` times 3 bytes) and a row come on top.
    public static func libraryBudget(fileSize: Int, limits: ImageLimits) -> Int {
        Int(wr_png_library_budget(fileSize, UInt32(clamping: limits.maxDimension)))
    }

    /// Decodes, and sets `peakBytes` to the most the decode held at once (libpng's
    /// allocations, the row and the decoded pixels), whether it succeeded or not.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits, background: [UInt8],
                              peakBytes: inout Int) throws(ImagingError) -> Bitmap {
        // libpng's own peak, and the pixels and row held here beside it.
        var libraryPeak = 0, held = 0
        defer { peakBytes = libraryPeak + held }
        return try bytes.withUnsafeBufferPointer { data throws(ImagingError) in
            var info = wr_png_info()
            var reader: OpaquePointer?
            let opened = wr_png_open(data.baseAddress, data.count, UInt32(clamping: limits.maxDimension),
                                     UInt64(limits.maxPixels), &info, &reader)
            defer {
                libraryPeak = Int(wr_png_peak_bytes(reader))
                wr_png_close(reader)
            }
            try check(opened, reader, info, limits: limits)
            let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
            let alpha = channels == 2 || channels == 4
            let colours = alpha ? channels - 1 : channels
            let compositing = AlphaCompositing(over: colours == 1 ? [gray(of: background)] : background)
            // A row goes straight into the bitmap unless it is blended or, as an Adam7 pass's, spread out.
            let direct = !alpha && info.interlaced == 0
            var row = [UInt8](repeating: 0, count: direct ? 0 : width * channels)
            held = width * height * colours + row.count
            let pixels = try [UInt8](overwriting: width * height * colours) { out throws(ImagingError) in
                var place = wr_png_row()
                for index in 0..<Int(info.rows) {
                    let status = direct
                        ? wr_png_read_row(reader, out.baseAddress! + index * width * colours, &place)
                        : row.withUnsafeMutableBufferPointer { wr_png_read_row(reader, $0.baseAddress, &place) }
                    try check(status, reader, info, limits: limits)
                    if direct { continue }
                    let target = out.baseAddress! + (Int(place.y) * width + Int(place.x)) * colours
                    let count = Int(place.count), step = Int(place.step)
                    row.withUnsafeBufferPointer { source in
                        if alpha {
                            compositing.blend(source.baseAddress!, count: count, into: target, step: step)
                        } else {
                            for i in 0..<count {
                                (target + i * step * colours).initialize(from: source.baseAddress! + i * colours, count: colours)
                            }
                        }
                    }
                }
                try check(wr_png_finish(reader), reader, info, limits: limits)
            }
            return Bitmap(width: width, height: height, channels: colours, pixels: pixels)
        }
    }

    /// Turns a reader's failure into a typed error; nothing for `WR_PNG_OK`.
    private static func check(_ status: Int32, _ reader: OpaquePointer?, _ info: wr_png_info,
                              limits: ImageLimits) throws(ImagingError) {
        switch Int(status) {
        case WR_PNG_OK:
            return
        case WR_PNG_TOO_LARGE:
            try limits.check(width: Int(info.width), height: Int(info.height), format: .png)
            throw ImagingError(.tooLarge, "png image of \(info.width)x\(info.height) pixels exceeds the limits")
        case WR_PNG_NO_MEMORY:
            throw ImagingError(.corrupt, "not enough memory to decode the png image")
        default:
            let text = ImagingError.libraryReason(String(cString: wr_png_message(reader)),
                                                  otherwise: "libpng stopped without giving a reason")
            if text.contains("unexpected end of file") || text.contains("Not enough image data")
                || text.contains("past the end of the file") {
                throw ImagingError(.truncated, "truncated PNG: \(text)")
            }
            throw ImagingError(.corrupt, "corrupt PNG: \(text)")
        }
    }

    private static func gray(of rgb: [UInt8]) -> UInt8 {
        rgb.count == 1 ? rgb[0] : Bitmap.luma(rgb[0], rgb[1], rgb[2])
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

import CTurboJPEG

/// A TurboJPEG decompression handle, released with its owner. One is made per decoded image
/// (header and pixels share it), which keeps every public type a plain Sendable value.
final class Decompressor {
    let handle: tjhandle

    init() throws(ImagingError) {
        guard let handle = tjInitDecompress() else { throw ImagingError(.corrupt, "cannot start the JPEG decoder") }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }
}

/// TurboJPEG calls.
enum JPEGCodec {
    struct Header {
        var width: Int
        var height: Int
        var colorspace: Int32
    }

    /// Turns a stopped decode into a typed error. TurboJPEG prefixes its own messages with
    /// the function name; libjpeg's messages (warnings included) come through as they are.
    static func error(from handle: tjhandle?, doing what: String) -> ImagingError {
        let said = handle.flatMap { tjGetErrorStr2($0) }.map { String(cString: $0) }
        var message = ImagingError.libraryReason(said, otherwise: "TurboJPEG stopped without giving a reason")
        if let parenthesis = message.firstIndex(of: "("), message[parenthesis...].hasPrefix("(): ") {
            message = String(message[message.index(parenthesis, offsetBy: 4)...])
        }
        let lowered = message.lowercased()
        if lowered.contains("premature end") || lowered.contains("end of file") || lowered.contains("insufficient data") {
            return ImagingError(.truncated, "truncated JPEG (\(what)): \(message)")
        }
        return ImagingError(.corrupt, "corrupt JPEG (\(what)): \(message)")
    }

    static func header(_ bytes: [UInt8], using decompressor: Decompressor) throws(ImagingError) -> Header {
        let handle = decompressor.handle
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0 else { throw error(from: handle, doing: "reading the header") }
        // TurboJPEG accepts a stream of tables alone (SOI, perhaps DQT and DHT, then EOI) as a
        // success with no size: such a file holds no picture, and the handle no error to tell.
        guard width > 0, height > 0 else {
            throw ImagingError(.corrupt, "corrupt JPEG: no image data in it (the stream ends before any frame header)")
        }
        return Header(width: Int(width), height: Int(height), colorspace: colorspace)
    }

    /// The scaling factor giving the smallest image whose longest side is still at least
    /// `minimumSide`; 1/1 when the image is not larger than that.
    static func scalingFactor(width: Int, height: Int, minimumSide: Int) -> ScalingFactor {
        let longest = max(width, height)
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return .one }
        var best = ScalingFactor.one
        for i in 0..<Int(count) {
            let factor = ScalingFactor(numerator: Int(factors[i].num), denominator: Int(factors[i].denom))
            guard factor.numerator <= factor.denominator else { continue }   // never enlarge
            if factor.scale(longest) >= minimumSide && factor.scale(longest) < best.scale(longest) {
                best = factor
            }
        }
        return best
    }

    /// What TurboJPEG is asked to write for a colour space: CMYK as stored (turned into RGB
    /// here), gray as one channel, anything else as RGB.
    static func output(for colorspace: Int32) -> (format: TJPF, channels: Int) {
        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) { return (TJPF_CMYK, 4) }
        if colorspace == Int32(TJCS_GRAY.rawValue) { return (TJPF_GRAY, 1) }
        return (TJPF_RGB, 3)
    }

    /// Refuses, before any data is decoded, a JPEG whose decode at `factor` would hold more
    /// than the limits allow: libjpeg's buffer of the whole image's DCT coefficients when the
    /// data comes in several scans (`JPEGFrame`), and the pixels written (CMYK's four
    /// channels, then their RGB).
    static func checkMemory(_ bytes: [UInt8], header: Header, factor: ScalingFactor, limits: ImageLimits) throws(ImagingError) {
        let frame = JPEGFrame(bytes)
        let coefficients = frame?.coefficientBytes ?? 0
        let (format, channels) = output(for: header.colorspace)
        let cmyk = format == TJPF_CMYK
        let pixels = factor.scale(header.width) * factor.scale(header.height) * (cmyk ? channels + 3 : channels)
        let image = frame?.progressive == true ? "progressive JPEG" : coefficients > 0 ? "multi-scan JPEG"
            : cmyk ? "CMYK JPEG" : "JPEG"
        let holder = coefficients > 0 ? "libjpeg holds all its DCT coefficients at once, 2 bytes a sample whatever the scale"
            : "its pixels at \(factor) scale"
        try limits.checkDecoderMemory(coefficients + pixels, image: image, width: header.width, height: header.height,
                                      holder: holder)
    }

    /// Decodes at `factor`. Warnings (corrupt or missing data that libjpeg would paper over
    /// with gray) stop the decode and become errors.
    static func decode(_ bytes: [UInt8], header: Header, factor: ScalingFactor,
                       using decompressor: Decompressor) throws(ImagingError) -> Bitmap {
        let handle = decompressor.handle
        let width = factor.scale(header.width), height = factor.scale(header.height)
        let (format, channels) = output(for: header.colorspace)
        let cmyk = format == TJPF_CMYK
        let flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
        // A decode that returns 0 has written every pixel (warnings stop it with an error).
        let pixels = try bytes.withUnsafeBufferPointer { source throws(ImagingError) in
            try [UInt8](overwriting: width * height * channels) { target throws(ImagingError) in
                guard tjDecompress2(handle, source.baseAddress, UInt(source.count), target.baseAddress,
                                    Int32(width), 0, Int32(height), format.rawValue, Int32(flags)) == 0 else {
                    throw error(from: handle, doing: "decoding")
                }
            }
        }
        if cmyk { return rgb(fromCMYK: pixels, width: width, height: height) }
        return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// CMYK as JPEG files store it (Adobe's inverted convention, which libjpeg-turbo also
    /// writes): 255 means no ink, so each RGB channel is the product of its ink and black.
    static func rgb(fromCMYK cmyk: [UInt8], width: Int, height: Int) -> Bitmap {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            let k = UInt32(cmyk[4 * i + 3])
            for c in 0..<3 {
                rgb[3 * i + c] = UInt8((UInt32(cmyk[4 * i + c]) * k + 127) / 255)
            }
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: rgb)
    }

    static func encode(_ pixels: [UInt8], width: Int, height: Int, format: TJPF, subsampling: TJSAMP,
                       quality: Int, progressive: Bool) throws(ImagingError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw ImagingError(.encodingFailed, "cannot start the JPEG encoder") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let flags: Int32 = progressive ? TJFLAG_PROGRESSIVE : 0
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(handle, source.baseAddress, Int32(width), 0, Int32(height), format.rawValue,
                        &output, &size, Int32(subsampling.rawValue), Int32(quality), flags)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            let message = ImagingError.libraryReason(tjGetErrorStr2(handle).map { String(cString: $0) },
                                                     otherwise: "TurboJPEG stopped without giving a reason")
            throw ImagingError(.encodingFailed, "JPEG encoding failed: \(message)")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}

import CWebP

/// WebP through libwebp: lossy and lossless, with or without alpha, still or animated (the
/// first frame, composed on its canvas). The EXIF orientation, kept in an `EXIF` chunk, is
/// applied after decoding, as for JPEG.
struct WebPCodec {
    var limits: ImageLimits
    var background: [UInt8]

    func header(of bytes: [UInt8]) throws(ImagingError) -> ImageHeader {
        let features = try self.features(of: bytes)
        let chunks = WebPChunks(bytes)
        return ImageHeader(format: .webp, storedWidth: Int(features.width), storedHeight: Int(features.height),
                           orientation: chunks.exif.flatMap { Exif.orientation(inTIFF: Self.tiff(inExif: $0)) } ?? .up,
                           frameCount: features.has_animation != 0 ? max(1, chunks.frameCount) : 1)
    }

    /// Decodes upright. With `minimumSide`, a still image is decoded straight to the size whose
    /// longest side is `minimumSide` (libwebp scales while it decodes, by area averaging), so a
    /// large photo never exists at full size in memory.
    func decode(_ bytes: [UInt8], minimumSide: Int?) throws(ImagingError) -> DecodedImage {
        let header = try header(of: bytes)
        try limits.check(width: header.storedWidth, height: header.storedHeight, format: .webp)
        let features = try self.features(of: bytes)
        let alpha = features.has_alpha != 0
        var stored: Bitmap
        var scale = ScalingFactor.one
        if features.has_animation != 0 {
            stored = try firstFrame(of: bytes, width: header.storedWidth, height: header.storedHeight)
        } else {
            var size = (width: header.storedWidth, height: header.storedHeight)
            if let minimumSide {
                size = Bitmap.fittedSize(width: size.width, height: size.height, longestSide: minimumSide)
                scale = ScalingFactor(numerator: max(size.width, size.height),
                                      denominator: max(header.storedWidth, header.storedHeight))
            }
            stored = try still(bytes, alpha: alpha, width: size.width, height: size.height,
                               scaled: size.width != header.storedWidth || size.height != header.storedHeight)
        }
        if scale.numerator == scale.denominator { scale = .one }
        return DecodedImage(format: .webp, bitmap: stored.applying(header.orientation), orientation: header.orientation,
                            width: header.width, height: header.height, scale: scale, frameCount: header.frameCount)
    }

    private func features(of bytes: [UInt8]) throws(ImagingError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        try check(status, doing: "reading the header")
        guard features.width > 0, features.height > 0 else { throw ImagingError(.corrupt, "corrupt WebP: a side of 0 pixels") }
        return features
    }

    private func still(_ bytes: [UInt8], alpha: Bool, width: Int, height: Int, scaled: Bool) throws(ImagingError) -> Bitmap {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw ImagingError(.corrupt, "cannot start the WebP decoder") }
        let samples = alpha ? 4 : 3
        config.options.use_scaling = scaled ? 1 : 0
        config.options.scaled_width = Int32(width)
        config.options.scaled_height = Int32(height)
        config.output.colorspace = alpha ? MODE_RGBA : MODE_RGB
        config.output.is_external_memory = 1
        // A successful decode writes every pixel; a failed one throws the buffer away.
        let pixels = try bytes.withUnsafeBufferPointer { source throws(ImagingError) in
            try [UInt8](overwriting: width * height * samples) { target throws(ImagingError) in
                config.output.u.RGBA.rgba = target.baseAddress
                config.output.u.RGBA.stride = Int32(width * samples)
                config.output.u.RGBA.size = target.count
                defer { WebPFreeDecBuffer(&config.output) }
                try check(WebPDecode(source.baseAddress, source.count, &config), doing: "decoding")
            }
        }
        return alpha ? AlphaCompositing.over(background, rgba: pixels, width: width, height: height)
                     : Bitmap(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// The first frame of an animation as the canvas shows it (frames may cover part of it).
    private func firstFrame(of bytes: [UInt8], width: Int, height: Int) throws(ImagingError) -> Bitmap {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw ImagingError(.corrupt, "cannot start the WebP decoder") }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        let rgba: [UInt8]? = bytes.withUnsafeBufferPointer { source in
            var data = WebPData(bytes: source.baseAddress, size: source.count)
            guard let decoder = WebPAnimDecoderNew(&data, &options) else { return nil }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            var frame: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0, Int(info.canvas_width) == width,
                  Int(info.canvas_height) == height, WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0,
                  let frame else { return nil }
            return Array(UnsafeBufferPointer(start: frame, count: width * height * 4))
        }
        guard let rgba else { throw ImagingError(.corrupt, "corrupt WebP: the animation's first frame cannot be decoded") }
        return AlphaCompositing.over(background, rgba: rgba, width: width, height: height)
    }

    private func check(_ status: VP8StatusCode, doing what: String) throws(ImagingError) {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_NOT_ENOUGH_DATA: throw ImagingError(.truncated, "truncated WebP (\(what)): the file ends too early")
        case VP8_STATUS_UNSUPPORTED_FEATURE: throw ImagingError(.unsupported, "unsupported WebP feature (\(what))")
        case VP8_STATUS_OUT_OF_MEMORY: throw ImagingError(.tooLarge, "not enough memory to decode the WebP image")
        case VP8_STATUS_BITSTREAM_ERROR: throw ImagingError(.corrupt, "corrupt WebP (\(what)): the bitstream is damaged")
        default: throw ImagingError(.corrupt, "corrupt WebP (\(what)): libwebp status \(status.rawValue)")
        }
    }

    /// An EXIF chunk's TIFF block; some writers put JPEG's "Exif\0\0" before it.
    static func tiff(inExif payload: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        payload.starts(with: Exif.exifHeader) ? payload.dropFirst(Exif.exifHeader.count) : payload
    }
}

/// The chunks of a RIFF WebP file that libwebp's decoder does not report: the EXIF payload
/// and the number of animation frames. Every size is checked against the file; a damaged
/// chunk list ends the walk (the image is then shown as stored, as for damaged EXIF).
struct WebPChunks {
    var exif: ArraySlice<UInt8>?
    var frameCount = 0

    init(_ bytes: [UInt8]) {
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let payload = offset + 8
            guard size >= 0, payload + size <= bytes.count else { return }
            switch String(decoding: bytes[offset..<payload - 4], as: UTF8.self) {
            case "EXIF": exif = exif ?? bytes[payload..<(payload + size)]
            case "ANMF": frameCount += 1
            default: break
            }
            offset = payload + size + (size & 1)
        }
    }
}

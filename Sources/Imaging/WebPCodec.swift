import CWebP

/// WebP through libwebp: lossy and lossless, with or without alpha, still or animated (the
/// first frame, drawn on its canvas). The EXIF orientation, kept in an `EXIF` chunk, is
/// applied after decoding, as for JPEG.
struct WebPCodec {
    var limits: ImageLimits
    var background: [UInt8]

    func header(of bytes: [UInt8]) throws(ImagingError) -> ImageHeader {
        let features = try self.features(of: bytes)
        let chunks = WebPChunks(bytes)
        return ImageHeader(format: .webp, storedWidth: Int(features.width), storedHeight: Int(features.height),
                           orientation: chunks.exif.flatMap { Exif.orientation(inTIFF: Self.tiff(inExif: $0)) } ?? .up,
                           frameCount: features.has_animation != 0 ? max(1, chunks.frameCount) : 1,
                           captureTime: chunks.exif.flatMap { Exif.captureTime(inTIFF: Self.tiff(inExif: $0)) })
    }

    /// Decodes upright. With `minimumSide`, the image (of an animation, its canvas) is decoded
    /// straight to the size whose longest side is `minimumSide` (libwebp scales while it
    /// decodes, by area averaging), so a large photo never exists at full size in memory.
    ///
    /// Every buffer a decode makes is counted against the limits before it is made: the
    /// canvas, the first frame (the only one decoded), the pixels written, and what libwebp
    /// holds of the whole image however small the output is (`checkDecoderMemory`).
    func decode(_ bytes: [UInt8], minimumSide: Int?) throws(ImagingError) -> DecodedImage {
        let header = try header(of: bytes)
        try limits.check(width: header.storedWidth, height: header.storedHeight, format: .webp)
        let features = try self.features(of: bytes)
        var size = (width: header.storedWidth, height: header.storedHeight)
        if let minimumSide {
            size = Bitmap.fittedSize(width: size.width, height: size.height, longestSide: minimumSide)
        }
        var scale = ScalingFactor(numerator: max(size.width, size.height),
                                  denominator: max(header.storedWidth, header.storedHeight))
        if scale.numerator == scale.denominator { scale = .one }
        let stored: Bitmap
        if features.has_animation != 0 {
            stored = try firstFrame(of: bytes, canvasWidth: header.storedWidth, canvasHeight: header.storedHeight,
                                    drawnAt: size)
        } else {
            let written = size.width * size.height * (features.has_alpha != 0 ? 4 + 3 : 3)
            try checkDecoderMemory(features, width: header.storedWidth, height: header.storedHeight, writing: written)
            stored = try still(bytes[...], alpha: features.has_alpha != 0, width: size.width, height: size.height,
                               scaled: scale != .one)
        }
        return DecodedImage(format: .webp, bitmap: stored.applying(header.orientation), orientation: header.orientation,
                            width: header.width, height: header.height, scale: scale, frameCount: header.frameCount,
                            captureTime: header.captureTime)
    }

    private func features(of bytes: ArraySlice<UInt8>) throws(ImagingError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        try check(status, doing: "reading the header")
        guard features.width > 0, features.height > 0 else { throw ImagingError(.corrupt, "corrupt WebP: a side of 0 pixels") }
        return features
    }

    private func features(of bytes: [UInt8]) throws(ImagingError) -> WebPBitstreamFeatures {
        try features(of: bytes[...])
    }

    /// Refuses a bitstream of `width` x `height` whose decode would hold more than the limits
    /// allow, with the `written` bytes of pixels the decode makes (RGBA and then their RGB,
    /// for alpha). libwebp's lossless decoder keeps the whole image as 32-bit ARGB (any pixel
    /// may copy any earlier one), whatever size it is asked to output. Its lossy decoder works
    /// a few rows at a time, but keeps a lossy image's alpha whole: a plane of a byte a pixel,
    /// decoded from a lossless bitstream through 32-bit ARGB of the whole plane.
    private func checkDecoderMemory(_ features: WebPBitstreamFeatures, width: Int, height: Int,
                                    writing written: Int) throws(ImagingError) {
        let (held, image, holder): (Int, String, String) =
            features.format == 2 ? (4, "lossless WebP", "libwebp's lossless decoder holds the whole image at 4 bytes a pixel")
            : features.has_alpha != 0 ? (1 + 4, "WebP with alpha", "libwebp holds its alpha whole, a byte a pixel, decoded through 4 more")
            : (0, "WebP", "its pixels")
        try limits.checkDecoderMemory(width * height * held + written, image: image, width: width, height: height,
                                      holder: holder)
    }

    private func still(_ bytes: ArraySlice<UInt8>, alpha: Bool, width: Int, height: Int, scaled: Bool) throws(ImagingError) -> Bitmap {
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
        return alpha ? AlphaCompositing(over: background).blend(rgba: pixels, width: width, height: height)
                     : Bitmap(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// The first frame of an animation as the canvas shows it, drawn at `size` (the canvas's
    /// size, or smaller). The frame alone is decoded, scaled as the canvas is, and drawn over
    /// the background where it lies; the rest of the canvas is the background (the first
    /// frame is drawn on a transparent canvas). libwebp's animation decoder is not used: it
    /// holds two full-size RGBA canvases, whatever size the frame is, and decodes unscaled,
    /// so a 90-byte file announcing a 10000x10000 canvas cost over 1 GB.
    private func firstFrame(of bytes: [UInt8], canvasWidth: Int, canvasHeight: Int,
                            drawnAt size: (width: Int, height: Int)) throws(ImagingError) -> Bitmap {
        let frame: WebPFrame? = bytes.withUnsafeBufferPointer { source in
            var data = WebPData(bytes: source.baseAddress, size: source.count)
            guard let demuxer = WebPDemux(&data) else { return nil }
            defer { WebPDemuxDelete(demuxer) }
            var iterator = WebPIterator()
            guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else { return nil }
            defer { WebPDemuxReleaseIterator(&iterator) }
            guard let start = iterator.fragment.bytes, let base = source.baseAddress else { return nil }
            let offset = UnsafeRawPointer(start) - UnsafeRawPointer(base)
            return WebPFrame(x: Int(iterator.x_offset), y: Int(iterator.y_offset), width: Int(iterator.width),
                             height: Int(iterator.height), bitstream: offset..<(offset + iterator.fragment.size))
        }
        guard let frame, frame.width > 0, frame.height > 0, frame.x + frame.width <= canvasWidth,
              frame.y + frame.height <= canvasHeight, frame.bitstream.lowerBound >= 0,
              frame.bitstream.upperBound <= bytes.count else {
            throw ImagingError(.corrupt, "corrupt WebP: the animation's first frame cannot be read")
        }
        let bitstream = bytes[frame.bitstream]
        let features = try self.features(of: bitstream)
        guard Int(features.width) == frame.width, Int(features.height) == frame.height else {
            throw ImagingError(.corrupt, "corrupt WebP: the first frame's bitstream is \(features.width)x\(features.height), "
                               + "its frame \(frame.width)x\(frame.height)")
        }
        // The frame's place on the drawn canvas: its edges scaled as the canvas is, at least a pixel.
        func scaled(_ value: Int, _ full: Int, _ drawn: Int) -> Int { value * drawn / full }
        let left = scaled(frame.x, canvasWidth, size.width), top = scaled(frame.y, canvasHeight, size.height)
        let right = max(left + 1, min(size.width, scaled(frame.x + frame.width, canvasWidth, size.width)))
        let bottom = max(top + 1, min(size.height, scaled(frame.y + frame.height, canvasHeight, size.height)))
        guard right <= size.width, bottom <= size.height else {
            throw ImagingError(.corrupt, "corrupt WebP: the animation's first frame lies outside its canvas")
        }
        // The frame drawn as RGBA, then as RGB, onto the canvas's RGB.
        let written = (right - left) * (bottom - top) * (4 + 3) + size.width * size.height * 3
        try checkDecoderMemory(features, width: frame.width, height: frame.height, writing: written)
        let drawn = try still(bitstream, alpha: true, width: right - left, height: bottom - top,
                              scaled: right - left != frame.width || bottom - top != frame.height)
        var canvas = Bitmap(width: size.width, height: size.height, filledWith: background)
        canvas.draw(drawn, atX: left, y: top)
        return canvas
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

/// Where an animation's first frame lies on its canvas, and its bitstream's bytes in the file.
private struct WebPFrame {
    var x, y, width, height: Int
    var bitstream: Range<Int>
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

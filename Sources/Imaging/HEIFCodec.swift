import CHeif
import Files

/// HEIF (HEIC) and AVIF through libheif, in process. libheif applies the container's own
/// orientation (`irot` and `imir`) while decoding; the EXIF orientation that phones also
/// write is never read, because applying both would turn the picture twice.
///
/// Every step returns a `heif_error` that is checked where it happens. The file's bytes are
/// lent to libheif without a copy, so all work on one file happens inside one closure.
struct HEIFCodec {
    var format: ImageFormat
    var limits: ImageLimits
    var background: [UInt8]

    /// Why libheif cannot be used, or nil when it can. libheif itself is loaded when the first
    /// HEIF or AVIF file needs it, not at every start (CHeif), and loads its codec plugins
    /// (Debian 13 ships dav1d and libde265 as plugins) in `heif_init`, once per process.
    private static let unavailable: String? = {
        var problem: UnsafePointer<CChar>?
        guard wardrobe_load_libheif(&problem) == 1 else { return problem.map { String(cString: $0) } ?? "cannot load libheif" }
        _ = heif_init(nil)
        return nil
    }()

    /// The compression the format's images use, as libheif names it.
    var compression: heif_compression_format { format == .avif ? heif_compression_AV1 : heif_compression_HEVC }

    /// Why this system cannot decode the format, or nil when it can.
    static func missingDecoder(for format: ImageFormat) -> String? {
        if let unavailable { return "cannot decode \(format.name): \(unavailable)" }
        let codec = format == .avif ? (heif_compression_AV1, "AV1", "libheif-plugin-dav1d")
                                    : (heif_compression_HEVC, "HEVC", "libheif-plugin-libde265")
        if heif_have_decoder_for_format(codec.0) != 0 { return nil }
        return "cannot decode \(format.name): this system's libheif has no \(codec.1) decoder (install \(codec.2))"
    }

    func header(of bytes: [UInt8]) throws(ImagingError) -> ImageHeader {
        try withFile(bytes) { (file) throws(ImagingError) in file.header }
    }

    /// The primary image, upright and 8-bit. With `minimumSide`, an embedded thumbnail is
    /// decoded instead when it is at least that large and has the same shape.
    func decode(_ bytes: [UInt8], minimumSide: Int?) throws(ImagingError) -> DecodedImage {
        if let missing = Self.missingDecoder(for: format) { throw ImagingError(.unsupported, missing) }
        return try withFile(bytes) { (file) throws(ImagingError) in
            let header = file.header
            try limits.check(width: header.width, height: header.height, format: format)
            // The coded picture may claim more than the file declares (its `ispe`): a 668-byte
            // file whose header says 64x48 once decoded to 16384x12288, three 200 MB planes.
            // libheif checks its limit (a square of this side) before it allocates a decoded
            // image: narrowed to what the file declares, such a file is refused before any pixel
            // exists.
            // The item properties, parsed once: the declared sizes here, the thumbnail's turns below.
            let properties = HEIFItemTransforms(bytes)
            let declared = properties?.largestDeclaredSide ?? 0
            heif_context_set_maximum_image_size_limit(file.context, Int32(clamping: codedSideLimit(header, declared: declared)))
            let source = minimumSide.flatMap {
                file.thumbnail(atLeast: $0, width: header.width, height: header.height, properties: properties)
            }
            defer { if let source { heif_image_handle_release(source) } }
            let bitmap = try decodePixels(of: source ?? file.primary)
            guard source != nil || (bitmap.width == header.width && bitmap.height == header.height) else {
                throw ImagingError(.corrupt, "corrupt \(format.name): the image decodes to \(bitmap.width)x\(bitmap.height), "
                                   + "not the \(header.width)x\(header.height) its header says")
            }
            let scale = source == nil ? ScalingFactor.one
                : ScalingFactor(numerator: max(bitmap.width, bitmap.height), denominator: max(header.width, header.height))
            return DecodedImage(format: format, bitmap: bitmap, orientation: .up, width: header.width,
                                height: header.height, scale: scale, frameCount: header.frameCount,
                                captureTime: header.captureTime)
        }
    }

    /// The side of the square libheif may decode into for an image with this header and
    /// the file's largest declared image side (a crop shows less than is coded): the larger,
    /// plus two coding blocks (HEVC and AV1 code whole blocks of up to 64 or 128 pixels and
    /// crop to the declared size), never more than the limits allow.
    func codedSideLimit(_ header: ImageHeader, declared: Int) -> Int {
        min(max(header.width, header.height, declared) + 256, limits.maxDimension)
    }

    /// Refuses a handle whose decode would hold more than the limits allow, from what libheif
    /// reports before decoding. libheif decodes to planes (taken here as 4:4:4, which the
    /// header does not tell apart from 4:2:0, with an alpha plane), converts them to one
    /// interleaved image (RGB, RGBA, or twice as wide beyond 8 bits) while both are held, and
    /// that image is then read into the bitmap's 3 bytes a pixel while both are held.
    private func checkDecoderMemory(_ handle: OpaquePointer, alpha: Bool, deep: Bool) throws(ImagingError) {
        let width = Int(heif_image_handle_get_width(handle)), height = Int(heif_image_handle_get_height(handle))
        let sample = deep ? 2 : 1
        let interleaved = (alpha ? 4 : 3) * sample, planes = (alpha ? 4 : 3) * sample
        let perPixel = max(planes + interleaved, interleaved + 3)
        let kind = (deep ? "\(heif_image_handle_get_luma_bits_per_pixel(handle))-bit " : "") + format.name + (alpha ? " with alpha" : "")
        try limits.checkDecoderMemory(width * height * perPixel, image: kind, width: width, height: height,
                                      holder: "libheif's planes, its interleaved \(deep ? "16-bit " : "")\(alpha ? "RGBA" : "RGB") "
                                          + "and the bitmap read from it take \(perPixel) bytes a pixel")
    }

    /// Decodes one image handle to 8-bit RGB, alpha composited over the background, read from
    /// libheif's image a row at a time.
    private func decodePixels(of handle: OpaquePointer) throws(ImagingError) -> Bitmap {
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        let deep = heif_image_handle_get_luma_bits_per_pixel(handle) > 8
        try checkDecoderMemory(handle, alpha: alpha, deep: deep)
        let chroma = deep ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                          : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        guard let options = heif_decoding_options_alloc() else { throw ImagingError(.corrupt, "cannot start the \(format.name) decoder") }
        defer { heif_decoding_options_free(options) }
        options.pointee.strict_decoding = 1
        var image: OpaquePointer?
        // The decoders under libheif print their own lines for damaged data; libheif's error says it.
        let decoded = StandardError.silencingLibraries { heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options) }
        if decoded.subcode == heif_suberror_Security_limit_exceeded {
            throw ImagingError(.corrupt, "corrupt \(format.name): its coded image is larger than its header says "
                               + "(\(heif_image_handle_get_width(handle))x\(heif_image_handle_get_height(handle)))")
        }
        try check(decoded, doing: "decoding")
        guard let image else { throw ImagingError(.corrupt, "corrupt \(format.name): no image decoded") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw ImagingError(.corrupt, "corrupt \(format.name): no pixels decoded")
        }
        let samples = alpha ? 4 : 3
        let bits = deep ? Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved)) : 8
        let compositing = AlphaCompositing(over: background)
        // One row reduced to 8 bits, for images deeper than that.
        var reduced = [UInt8](repeating: 0, count: deep ? width * samples : 0)
        let rgb = [UInt8](overwriting: width * height * 3) { out in
            for y in 0..<height {
                let target = out.baseAddress! + y * width * 3
                func place(_ row: UnsafePointer<UInt8>) {
                    if alpha {
                        compositing.blend(row, count: width, into: target)
                    } else {
                        target.initialize(from: row, count: width * 3)
                    }
                }
                if deep {
                    HighBitDepth.reduce(plane + y * Int(stride), stride: Int(stride), width: width, height: 1,
                                        samples: samples, bits: bits, into: &reduced)
                    reduced.withUnsafeBufferPointer { place($0.baseAddress!) }
                } else {
                    place(plane + y * Int(stride))
                }
            }
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: rgb)
    }

    /// Parses the container (boxes only, no pixels) and runs `body` with the primary image.
    private func withFile<T>(_ bytes: [UInt8], _ body: (HEIFFile) throws(ImagingError) -> T) throws(ImagingError) -> T {
        if let unavailable = Self.unavailable { throw ImagingError(.unsupported, "cannot read \(format.name): \(unavailable)") }
        if let place = FileTypeBox.truncation(in: bytes) {
            throw ImagingError(.truncated, "truncated \(format.name): the file ends \(place) (\(bytes.count) bytes)")
        }
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImagingError) -> T in
                guard let context = heif_context_alloc() else { throw ImagingError(.corrupt, "cannot start the \(format.name) decoder") }
                defer { heif_context_free(context) }
                // libheif refuses larger images itself, including every tile of a grid.
                heif_context_set_maximum_image_size_limit(context, Int32(clamping: limits.maxDimension))
                try check(heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil),
                          doing: "reading the container")
                var primary: OpaquePointer?
                try check(heif_context_get_primary_image_handle(context, &primary), doing: "finding the primary image")
                guard let primary else { throw ImagingError(.corrupt, "corrupt \(format.name): no primary image") }
                defer { heif_image_handle_release(primary) }
                let file = HEIFFile(format: format, context: context, primary: primary)
                return try body(file)
            }
        }
        return try result.get()
    }

    /// A libheif error as one line: truncation, size limits, missing codecs and damage apart.
    func check(_ error: heif_error, doing what: String) throws(ImagingError) {
        guard error.code != heif_error_Ok else { return }
        let line = ImagingError.libraryReason(error.message.map { String(cString: $0) },
                                              otherwise: "libheif error \(error.code.rawValue).\(error.subcode.rawValue) without a reason")
        if error.subcode == heif_suberror_End_of_data {
            throw ImagingError(.truncated, "truncated \(format.name) (\(what)): \(line)")
        }
        if error.subcode == heif_suberror_Security_limit_exceeded || error.code == heif_error_Memory_allocation_error {
            throw ImagingError(.tooLarge, "\(format.name) image exceeds the limits (\(what)): \(line)")
        }
        if error.subcode == heif_suberror_Unsupported_codec {
            throw ImagingError(.unsupported, Self.missingDecoder(for: format) ?? "unsupported \(format.name) codec: \(line)")
        }
        if error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype {
            throw ImagingError(.unsupported, "unsupported \(format.name) (\(what)): \(line)")
        }
        throw ImagingError(.corrupt, "corrupt \(format.name) (\(what)): \(line)")
    }
}

/// A parsed HEIF container and its primary image handle, both owned by `HEIFCodec.withFile`.
struct HEIFFile {
    var format: ImageFormat
    var context: OpaquePointer
    var primary: OpaquePointer

    /// Sizes as shown (libheif reports them with `irot` applied); the file's other top-level
    /// images (a burst, a sequence's stills) count as frames, of which the primary is read.
    var header: ImageHeader {
        ImageHeader(format: format, storedWidth: Int(heif_image_handle_get_width(primary)),
                    storedHeight: Int(heif_image_handle_get_height(primary)), orientation: .up,
                    frameCount: max(1, Int(heif_context_get_number_of_top_level_images(context))),
                    captureTime: exifItems.lazy.compactMap { Exif.tiff(inHEIFExif: $0).flatMap { Exif.captureTime(inTIFF: $0) } }.first)
    }

    /// The primary image's Exif metadata items, as libheif gives them (at most a few, each at
    /// most 1 MB: EXIF's own segments hold 64 KB).
    var exifItems: [[UInt8]] {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(primary, "Exif"))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: min(count, 8))
        let found = Int(heif_image_handle_get_list_of_metadata_block_IDs(primary, "Exif", &ids, Int32(ids.count)))
        return ids.prefix(max(0, found)).compactMap { id in
            let size = heif_image_handle_get_metadata_size(primary, id)
            guard size > 0, size <= 1 << 20 else { return nil }
            var item = [UInt8](repeating: 0, count: size)
            guard heif_image_handle_get_metadata(primary, id, &item).code == heif_error_Ok else { return nil }
            return item
        }
    }

    /// The embedded thumbnail (phones store one of about 320 pixels) when its longest side is
    /// at least `minimumSide` and it shows the same picture: the same rotation and mirroring
    /// as the primary (`HEIFItemTransforms`), the same shape within a pixel, and alpha when
    /// the primary has alpha. `properties` are the file's (nil when they did not parse: then
    /// no thumbnail is used). The caller releases it.
    func thumbnail(atLeast minimumSide: Int, width: Int, height: Int, properties: HEIFItemTransforms?) -> OpaquePointer? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let found = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        var primaryID: heif_item_id = 0
        guard heif_context_get_primary_image_ID(context, &primaryID).code == heif_error_Ok,
              let transforms = properties, let turned = transforms.transforms(of: primaryID) else { return nil }
        let primaryAlpha = heif_image_handle_has_alpha_channel(primary) != 0
        for id in ids.prefix(found) where transforms.transforms(of: id) == turned {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { continue }
            let w = Int(heif_image_handle_get_width(handle)), h = Int(heif_image_handle_get_height(handle))
            let sameShape = w > 0 && h > 0 && abs(w * height - h * width) <= max(width, height)
            let alphaKept = !primaryAlpha || heif_image_handle_has_alpha_channel(handle) != 0
            if max(w, h) >= minimumSide && max(w, h) < max(width, height) && sameShape && alphaKept { return handle }
            heif_image_handle_release(handle)
        }
        return nil
    }
}

extension ImageDecoder {
    /// The formats this system's libheif cannot decode, each with the one-line reason an
    /// import of such a file gives; empty when HEIF and AVIF both decode.
    public static var missingDecoders: [ImageFormat: String] {
        var missing: [ImageFormat: String] = [:]
        for format in [ImageFormat.heif, .avif] { missing[format] = HEIFCodec.missingDecoder(for: format) }
        return missing
    }
}

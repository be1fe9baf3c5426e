import CHeif
import CTurboJPEG
import CWebP
import Imaging

/// The decode-bound limit's decoders: each library called directly, decoding only what a
/// 256-pixel thumbnail needs, as the import's decoders do (TurboJPEG at the DCT scale whose
/// longest side is still at least `side`; libheif from the embedded thumbnail whose longest
/// side is at least `side`, else the primary image; libwebp scaled while it decodes to the
/// size whose longest side is `side`), to interleaved RGB and nothing after. Each returns
/// what it decoded ("JPEG at DCT scale 1/8", "HEIF embedded thumbnail 320x240"), or nil
/// when the file does not decode.
enum LimitDecoders {
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, side: Int) -> String? {
        switch ImageFormat.sniff(bytes) {
        case .jpeg: return jpeg(bytes, side: side)
        case .heif, .avif: return heif(bytes, side: side)
        case .webp: return webp(bytes, side: side)
        case .png, nil: return nil
        }
    }

    static func jpeg(_ source: UnsafeBufferPointer<UInt8>, side: Int) -> String? {
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source.baseAddress, UInt(source.count),
                                  &width, &height, &subsampling, &colorspace) == 0 else { return nil }
        let (size, factor) = scaled(width: Int(width), height: Int(height), side: side)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        guard tjDecompress2(handle, source.baseAddress, UInt(source.count), &pixels, Int32(size.width), 0,
                            Int32(size.height), TJPF_RGB.rawValue, 0) == 0 else { return nil }
        return "JPEG at DCT scale \(factor)"
    }

    static func heif(_ source: UnsafeBufferPointer<UInt8>, side: Int) -> String? {
        guard let context = heif_context_alloc() else { return nil }
        defer { heif_context_free(context) }
        var primary: OpaquePointer?
        guard heif_context_read_from_memory_without_copy(context, source.baseAddress, source.count, nil).code == heif_error_Ok,
              heif_context_get_primary_image_handle(context, &primary).code == heif_error_Ok, let primary else { return nil }
        defer { heif_image_handle_release(primary) }
        let width = Int(heif_image_handle_get_width(primary)), height = Int(heif_image_handle_get_height(primary))
        var chosen = primary
        var thumbnail: OpaquePointer?
        defer { if let thumbnail { heif_image_handle_release(thumbnail) } }
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        var ids = [heif_item_id](repeating: 0, count: max(1, count))
        let found = count > 0 ? Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count))) : 0
        for id in ids.prefix(found) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { continue }
            let longest = max(Int(heif_image_handle_get_width(handle)), Int(heif_image_handle_get_height(handle)))
            if longest >= side && longest < max(width, height) {
                thumbnail = handle
                chosen = handle
                break
            }
            heif_image_handle_release(handle)
        }
        var image: OpaquePointer?
        guard heif_decode_image(chosen, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil).code == heif_error_Ok,
              let image else { return nil }
        defer { heif_image_release(image) }
        let decodedWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
        let decodedHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
        let how = thumbnail == nil ? "primary image" : "embedded thumbnail"
        return "HEIF \(how) \(decodedWidth)x\(decodedHeight)"
    }

    static func webp(_ source: UnsafeBufferPointer<UInt8>, side: Int) -> String? {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0,
              WebPGetFeatures(source.baseAddress, source.count, &config.input) == VP8_STATUS_OK else { return nil }
        let width = Int(config.input.width), height = Int(config.input.height)
        let size = Bitmap.fittedSize(width: width, height: height, longestSide: side)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        config.options.use_scaling = 1
        config.options.scaled_width = Int32(size.width)
        config.options.scaled_height = Int32(size.height)
        config.output.colorspace = MODE_RGB
        config.output.is_external_memory = 1
        let status = pixels.withUnsafeMutableBufferPointer { target in
            config.output.u.RGBA.rgba = target.baseAddress
            config.output.u.RGBA.stride = Int32(size.width * 3)
            config.output.u.RGBA.size = target.count
            defer { WebPFreeDecBuffer(&config.output) }
            return WebPDecode(source.baseAddress, source.count, &config)
        }
        return status == VP8_STATUS_OK ? "WebP scaled to \(size.width)x\(size.height)" : nil
    }

    /// The DCT scale TurboJPEG offers that gives the smallest image whose longest side is
    /// still at least `side`, as the import's decoder chooses it, and that scale ("1/8").
    static func scaled(width: Int, height: Int, side: Int) -> ((width: Int, height: Int), String) {
        var count: Int32 = 0
        let factors = tjGetScalingFactors(&count)!
        let longest = max(width, height)
        var best = (width: width, height: height)
        var factor = "1/1"
        for i in 0..<Int(count) {
            let num = Int(factors[i].num), denom = Int(factors[i].denom)
            guard num <= denom else { continue }
            let scaledLongest = (longest * num + denom - 1) / denom
            if scaledLongest >= side && scaledLongest < max(best.width, best.height) {
                best = ((width * num + denom - 1) / denom, (height * num + denom - 1) / denom)
                factor = "\(num)/\(denom)"
            }
        }
        return (best, factor)
    }
}

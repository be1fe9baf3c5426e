import CHeif
import Foundation
import Imaging

/// Writes the sources of Fixtures/formats (`make fixtures` turns them into HEIF, AVIF and
/// WebP files with heif-enc, cwebp and img2webp; see tools/make_format_fixtures.sh), and the
/// oriented HEIF and AVIF files itself, because heif-enc cannot write `irot`/`imir`.
///
/// The upright picture of every oriented file: 64x48, blue-gray, with a red marker filling
/// its top-left 16x12 corner. Each file stores that picture turned the way a camera held
/// that way would store it, and says so as phones do: HEIF and AVIF in `irot`/`imir` *and*
/// in EXIF, WebP and JPEG in EXIF.
struct FormatFixtureWriter {
    let out: String

    static let width = 64, height = 48
    static let marker: [UInt8] = [220, 30, 30]
    static let field: [UInt8] = [60, 110, 170]

    static func upright() -> Bitmap {
        var picture = Bitmap(width: width, height: height, filledWith: field)
        for y in 0..<(height / 4) { for x in 0..<(width / 4) { picture.set(x: x, y: y, to: marker) } }
        return picture
    }

    /// The stored pixels for an orientation tag: the inverse of what a viewer applies.
    static func stored(_ orientation: Orientation) -> Bitmap {
        let inverse: [Orientation: Orientation] = [.rotated90Clockwise: .rotated90CounterClockwise,
                                                   .rotated90CounterClockwise: .rotated90Clockwise]
        return upright().applying(inverse[orientation] ?? orientation)
    }

    func write() throws {
        let sources = path("sources")
        for folder in [sources, path("orientation"), path("features")] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for orientation in Orientation.allCases {
            let tag = orientation.rawValue
            let stored = Self.stored(orientation)
            try save(try JPEGEncoder(quality: 95, subsampling: .none, orientation: orientation).encode(stored),
                     "orientation/jpeg-\(tag).jpg")
            for format in [heif_compression_HEVC, heif_compression_AV1] {
                let name = format == heif_compression_AV1 ? "avif" : "heic"
                try save(try encodeHEIF(stored, format: format, orientation: orientation), "orientation/\(name)-\(tag).\(name)")
            }
        }
        // For heif-enc and cwebp: gray, alpha, 16-bit (becomes 10-bit), two animation frames.
        let gradient = Bitmap(width: 48, height: 32, channels: 1, pixels: (0..<(48 * 32)).map { UInt8(($0 % 48) * 5) })
        try save(try PNGEncoder().encode(gradient), "sources/gray.png")
        try save(try PNGEncoder().encode(samples: Self.alphaSamples(), width: 48, height: 32, colorType: .rgba, bitDepth: 8),
                 "sources/alpha.png")
        try save(try PNGEncoder().encode(samples: Self.deepSamples(), width: 48, height: 32, colorType: .rgb, bitDepth: 16),
                 "sources/deep.png")
        try save(try PNGEncoder().encode(Bitmap(width: 40, height: 30, filledWith: Self.marker)), "sources/frame-1.png")
        try save(try PNGEncoder().encode(Bitmap(width: 40, height: 30, filledWith: Self.field)), "sources/frame-2.png")
        try save(try JPEGEncoder(quality: 90).encode(Self.upright().resized(width: 640, height: 480)), "sources/large.jpg")
        // 640x480 stored upside down (irot 180 degrees) with a 320-pixel thumbnail: turned the
        // same way, and, as a writer that turned only the primary image leaves it, not turned.
        let upsideDown = Self.upright().resized(width: 640, height: 480).applying(.rotated180)
        for (name, thumbnail) in [("turned-thumbnail", Orientation.rotated180), ("unturned-thumbnail", .up)] {
            try save(try encodeHEIF(upsideDown, format: heif_compression_HEVC, orientation: .rotated180,
                                    thumbnail: (side: 320, orientation: thumbnail)), "features/\(name).heic")
        }
    }

    /// Left half opaque red, right half fully transparent (white once composited).
    static func alphaSamples() -> [UInt8] {
        (0..<(48 * 32)).flatMap { i -> [UInt8] in i % 48 < 24 ? [220, 30, 30, 255] : [0, 0, 0, 0] }
    }

    /// 16-bit RGB, big-endian: left half full scale, right half 50% gray (32896 = 128.5 / 255).
    static func deepSamples() -> [UInt8] {
        (0..<(48 * 32)).flatMap { i -> [UInt8] in
            let value: UInt16 = i % 48 < 24 ? 0xFFFF : 0x8080
            let sample = [UInt8(value >> 8), UInt8(value & 0xFF)]
            return sample + sample + sample
        }
    }

    /// An HEIF file of `bitmap` as stored, with `orientation` in `irot`/`imir` and EXIF; with
    /// `thumbnail`, an embedded thumbnail of that size whose own `irot`/`imir` say `thumbnail.orientation`.
    private func encodeHEIF(_ bitmap: Bitmap, format: heif_compression_format, orientation: Orientation,
                            thumbnail: (side: Int, orientation: Orientation)? = nil) throws -> [UInt8] {
        guard let context = heif_context_alloc() else { throw FixtureError("libheif: no context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, format, &encoder))
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, 90))
        var image: OpaquePointer?
        try check(heif_image_create(Int32(bitmap.width), Int32(bitmap.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image))
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(bitmap.width), Int32(bitmap.height), 8))
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else { throw FixtureError("libheif: no plane") }
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                for c in 0..<3 { plane[y * Int(stride) + 3 * x + c] = bitmap[x, y][bitmap[x, y].startIndex + c] }
            }
        }
        guard let options = heif_encoding_options_alloc() else { throw FixtureError("libheif: no options") }
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation.rawValue))
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, options, &handle))
        defer { heif_image_handle_release(handle) }
        if let thumbnail {
            options.pointee.image_orientation = heif_orientation(rawValue: UInt32(thumbnail.orientation.rawValue))
            var thumbnailHandle: OpaquePointer?
            try check(heif_context_encode_thumbnail(context, image, handle, encoder, options, Int32(thumbnail.side), &thumbnailHandle))
            heif_image_handle_release(thumbnailHandle)
        }
        // The same orientation in EXIF, as phones write it: a reader that applies both turns twice.
        let exif = Array(Exif.app1Segment(orientation: orientation).dropFirst(4))   // "Exif\0\0" + TIFF
        let tiffOffset: [UInt8] = [0, 0, 0, 6]   // HEIF's Exif item starts with the offset to the TIFF header
        let item = tiffOffset + exif
        try check(heif_context_add_exif_metadata(context, handle, item, Int32(item.count)))
        let path = NSTemporaryDirectory() + "fixture-\(UUID().uuidString).heif"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try check(heif_context_write_to_file(context, path))
        return try ImageFile.read(path)
    }

    private func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        throw FixtureError("libheif: " + (error.message.map { String(cString: $0) } ?? "error \(error.code)"))
    }

    private func path(_ relative: String) -> String { (out as NSString).appendingPathComponent(relative) }

    private func save(_ bytes: [UInt8], _ relative: String) throws {
        try ImageFile.write(bytes, to: path(relative))
        print("wrote \(path(relative)) (\(bytes.count) bytes)")
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Imaging
import Testing

/// A PNG's length fields cannot make the decoder allocate more than the file holds, and a
/// decode's peak memory stays within what the image limits allow. (A 92-byte file whose
/// tEXt chunk claimed 2 GB once cost 2.1 GB per worker.)
@Suite struct PNGChunkLimitTests {
    static let white: [UInt8] = [255, 255, 255]

    /// A valid 1x1 gray PNG with `chunks` inserted after IHDR.
    static func png(inserting chunks: [[UInt8]] = [], width: Int = 1, height: Int = 1) throws -> [UInt8] {
        let plain = try PNGEncoder().encode(Bitmap(width: width, height: height, filledWith: [128]))
        let afterHeader = 8 + 8 + 13 + 4
        return Array(plain[..<afterHeader]) + chunks.flatMap { $0 } + Array(plain[afterHeader...])
    }

    /// One chunk with a correct CRC; `claimedLength` overrides the length field.
    static func chunk(_ type: String, _ data: [UInt8], claimedLength: UInt32? = nil) -> [UInt8] {
        let length = claimedLength ?? UInt32(data.count)
        let body = Array(type.utf8) + data
        return bigEndian(length) + body + bigEndian(crc32(body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xedb8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    @Test(arguments: ["tEXt", "zTXt", "iTXt", "iCCP", "PLTE", "IDAT", "abCd"])
    func aLengthBeyondTheFileIsRefusedWithoutAllocatingIt(type: String) throws {
        let bomb = try Self.png(inserting: [Self.chunk(type, Array("Comment\0x".utf8), claimedLength: 0x7fff_ffff)])
        #expect(bomb.count < 100)
        var peak = -1
        do {
            _ = try PNGCodec.decode(bomb, limits: .default, background: Self.white, peakBytes: &peak)
            Issue.record("a chunk claiming 2 GB in a \(bomb.count)-byte file decoded")
        } catch {
            #expect(error.kind == .truncated, "\(error)")
            #expect(error.reason.contains(type) && error.reason.contains("2147483647"), "\(error)")
        }
        #expect(peak < 64 << 10, "the decode held \(peak) bytes for a \(bomb.count)-byte file")
        // Through the public decoder too (import, classify, show's stored thumbnails).
        #expect(throws: ImagingError.self) { try ImageDecoder().decode(bomb) }
    }

    @Test func metadataChunksAreSkippedNotKept() throws {
        // 2,000 text chunks of 4 KiB each: 8 MB of metadata nobody uses.
        let text = Self.chunk("tEXt", Array("Comment\0".utf8) + [UInt8](repeating: 65, count: 4096))
        let png = try Self.png(inserting: Array(repeating: text, count: 2_000))
        var peak = 0
        let bitmap = try PNGCodec.decode(png, limits: .default, background: Self.white, peakBytes: &peak)
        #expect(bitmap.pixels == [128])
        #expect(peak < 1 << 20, "the decode held \(peak) bytes for a 1x1 image with \(png.count) bytes of text")
    }

    @Test func aDecodesPeakIsThePixelsAndABoundedAllowance() throws {
        let bitmap = TestImages.gradient(width: 640, height: 480)
        let png = try PNGEncoder().encode(bitmap)
        var peak = 0
        #expect(try PNGCodec.decode(png, limits: .default, background: Self.white, peakBytes: &peak) == bitmap)
        let pixels = 640 * 480 * 3
        #expect(peak >= pixels)
        #expect(peak <= pixels + 480 * 8 + PNGCodec.libraryBudget(fileSize: png.count, limits: .default))
        // The allowance follows the limits, not anything the file says.
        #expect(PNGCodec.libraryBudget(fileSize: png.count, limits: .default) < 3 << 20)
    }

    @Test func anImageOverThePixelLimitIsRefusedBeforeItsPixelsAreAllocated() throws {
        let png = try Self.png(width: 3000, height: 3000)
        var peak = 0
        let limits = ImageLimits(maxDimension: 32_768, maxPixels: 1_000_000)
        #expect(throws: ImagingError.self) {
            try PNGCodec.decode(png, limits: limits, background: Self.white, peakBytes: &peak)
        }
        #expect(peak < 1 << 20)
    }
}

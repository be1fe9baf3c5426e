import Glibc
import Imaging
import SeededRandom
import Testing

/// Cut and flip for the HEIF, AVIF and WebP decoders, as for JPEG and PNG: every cut file is
/// an error, no damaged file crashes the process, each failure is one line, and memory stays
/// bounded (the limits are checked before libheif or libwebp allocate pixels).
@Suite struct FormatRobustnessTests {
    static let samples = ["orientation/heic-6.heic", "orientation/avif-6.avif", "orientation/webp-6.webp",
                          "features/alpha-lossless.webp", "features/animated.webp", "features/with-thumbnail.heic"]
    /// Strict enough that a damaged header claiming a huge image is refused, not allocated.
    let decoder = ImageDecoder(limits: ImageLimits(maxDimension: 4096, maxPixels: 4_000_000))

    static func peakMemory() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    @Test(arguments: samples)
    func everyCutIsAnErrorAndNothingCrashes(name: String) throws {
        let bytes = try FormatDecodingTests.fixture(name)
        #expect(try decoder.decode(bytes).bitmap.width > 0)
        var cuts = Set(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)))
        cuts.formUnion(max(0, bytes.count - 40)..<bytes.count)
        cuts.formUnion(0..<min(40, bytes.count))
        for cut in cuts.sorted() {
            do {
                _ = try decoder.decode(Array(bytes.prefix(cut)), minimumSide: 256)
                Issue.record("\(name) cut at \(cut) of \(bytes.count) bytes decoded without error")
            } catch {
                #expect(!error.description.isEmpty && !error.description.contains("\n"), "\(error)")
            }
        }
    }

    @Test(arguments: samples)
    func flippedBytesNeverCrashAndMemoryStaysBounded(name: String) throws {
        let bytes = try FormatDecodingTests.fixture(name)
        let before = Self.peakMemory()
        var random = SplitMix64(seed: 7)
        var failures = 0
        for round in 0..<400 {
            var damaged = bytes
            for _ in 0..<(1 + round % 4) {
                let index = Int(random.next() % UInt64(bytes.count))
                damaged[index] ^= UInt8(1 + random.next() % 255)
            }
            do {
                let decoded = try decoder.decode(damaged, minimumSide: round % 2 == 0 ? 256 : nil)
                let bitmap = decoded.bitmap
                #expect(bitmap.pixels.count == bitmap.width * bitmap.height * bitmap.channels)
                #expect(bitmap.width <= 4096 && bitmap.height <= 4096)
            } catch {
                failures += 1
                #expect(!error.description.isEmpty && !error.description.contains("\n"), "\(error)")
            }
        }
        // Damage to the container or headers is noticed; damage inside coded data may decode
        // to wrong pixels, as it would in any viewer, but never to a crash.
        #expect(failures > 0, "\(name): \(failures) of 400 damaged files failed")
        let growth = Self.peakMemory() - before
        #expect(growth < 300 << 20, "\(name): peak memory grew by \(growth >> 20) MB")
    }

    @Test func aHeaderClaimingAHugeImageIsRefusedBeforeDecoding() throws {
        // The ispe box (width and height as 32-bit numbers) rewritten to claim 50000 x 50000.
        var heif = try FormatDecodingTests.fixture("orientation/heic-1.heic")
        let ispe = try #require(heif.indices.first { heif[$0..<min($0 + 4, heif.count)].elementsEqual("ispe".utf8) })
        for (offset, value) in [(ispe + 8, 50_000), (ispe + 12, 50_000)] {
            for i in 0..<4 { heif[offset + i] = UInt8((value >> (24 - 8 * i)) & 0xFF) }
        }
        let before = Self.peakMemory()
        do {
            _ = try ImageDecoder().decode(heif)
            Issue.record("a 2500-megapixel header was decoded")
        } catch {
            #expect(error.kind == .tooLarge, "\(error)")
        }
        // WebP's VP8X canvas size: 24 bits each, minus one.
        var webp = try FormatDecodingTests.fixture("features/animated.webp")
        let vp8x = try #require(webp.indices.first { webp[$0..<min($0 + 4, webp.count)].elementsEqual("VP8X".utf8) })
        for i in 0..<6 { webp[vp8x + 12 + i] = 0xFF }
        do {
            _ = try ImageDecoder().decode(webp)
            Issue.record("a 16-million-pixel-wide canvas was decoded")
        } catch {
            #expect(error.kind == .tooLarge || error.kind == .corrupt, "\(error)")
        }
        #expect(Self.peakMemory() - before < 100 << 20)
    }

    @Test func aCodedPictureLargerThanItsHeaderIsRefusedBeforeItsPixelsExist() throws {
        // Every ispe box of a 640x480 HEIC rewritten to declare 16x16: the coded picture (as
        // a damaged item location once made a 64x48 file code for 16384x12288) claims more
        // than the file declares. Decoding it whole would allocate what the bitstream asks.
        var heif = try FormatDecodingTests.fixture("features/with-thumbnail.heic")
        let boxes = heif.indices.filter { heif[$0..<min($0 + 4, heif.count)].elementsEqual("ispe".utf8) }
        #expect(boxes.count >= 2)
        for ispe in boxes {
            for offset in [ispe + 8, ispe + 12] {
                heif.replaceSubrange(offset..<(offset + 4), with: [0, 0, 0, 16])
            }
        }
        do {
            _ = try ImageDecoder().decode(heif)
            Issue.record("a picture coded larger than its header was decoded")
        } catch {
            #expect(error.kind == .corrupt, "\(error)")
            #expect(error.description.contains("coded image is larger than its header says"), "\(error)")
        }
    }
}

import Glibc
import Imaging
import Testing

/// Tiny WebP files that announce huge images: a lossless bitstream whose prefix codes each
/// hold one symbol spends no bits on a pixel, so thirty bytes describe any size, and an
/// animation's canvas can be far larger than its frames. Every buffer a decode makes is
/// counted against the limits before it is made.
@Suite struct WebPBombTests {
    let decoder = ImageDecoder()

    /// What kind of error `body` throws, nil if none.
    static func failure(_ body: () throws(ImagingError) -> Void) -> ImagingError.Kind? {
        do { try body() } catch { return error.kind }
        return nil
    }

    @Test func aHugeCanvasAroundOneSmallFrameIsNeverDecodedWhole() throws {
        // 10000x10000 canvas, one 16x16 red frame in its corner: about 90 bytes.
        let file = WebPWriter.animation(canvas: (10_000, 10_000), frames: [
            .init(x: 0, y: 0, width: 16, height: 16, colour: (255, 0, 0)),
        ])
        #expect(file.count < 120)
        let before = FormatRobustnessTests.peakMemory()
        let image = try decoder.decode(file, minimumSide: 256)
        let grown = FormatRobustnessTests.peakMemory() - before
        #expect(grown < 48 << 20, "decoding the first frame of a 10000x10000 canvas took \(grown >> 20) MB more")
        #expect((image.width, image.height) == (10_000, 10_000))
        #expect((image.bitmap.width, image.bitmap.height) == (256, 256))
        #expect(Array(image.bitmap[0, 0]) == [255, 0, 0])
        #expect(Array(image.bitmap[128, 128]) == [255, 255, 255])
    }

    @Test func theFirstFrameIsDrawnWhereItLiesAndNoOtherIs() throws {
        let file = WebPWriter.animation(canvas: (64, 48), frames: [
            .init(x: 32, y: 16, width: 16, height: 8, colour: (0, 200, 0)),
            .init(x: 0, y: 0, width: 64, height: 48, colour: (0, 0, 200)),
        ])
        let image = try decoder.decode(file)
        #expect(image.frameCount == 2)
        #expect((image.bitmap.width, image.bitmap.height) == (64, 48))
        #expect(Array(image.bitmap[40, 20]) == [0, 200, 0])
        #expect(Array(image.bitmap[31, 20]) == [255, 255, 255])
        #expect(Array(image.bitmap[48, 20]) == [255, 255, 255])
        #expect(Array(image.bitmap[40, 24]) == [255, 255, 255])
        let half = try decoder.decode(file, minimumSide: 32)
        #expect((half.bitmap.width, half.bitmap.height) == (32, 24))
        #expect(Array(half.bitmap[20, 10]) == [0, 200, 0])
        #expect(Array(half.bitmap[10, 10]) == [255, 255, 255])
    }

    /// libwebp's lossless decoder holds the whole image as 32-bit ARGB however small its
    /// output: a lossless image's pixels count four bytes each against the three of RGB.
    @Test func aLosslessImageCountsTheMemoryItsDecoderHolds() throws {
        let small = ImageDecoder(limits: ImageLimits(maxDimension: 4096, maxPixels: 4_000_000))
        let refused = Self.failure { () throws(ImagingError) in
            _ = try small.decode(WebPWriter.still(width: 2000, height: 2000), minimumSide: 256)
        }
        #expect(refused == .tooLarge)
        let fits = try small.decode(WebPWriter.still(width: 1700, height: 1700), minimumSide: 256)
        #expect((fits.bitmap.width, fits.bitmap.height) == (256, 256))

        let before = FormatRobustnessTests.peakMemory()
        do {
            _ = try decoder.decode(WebPWriter.still(width: 10_000, height: 10_000), minimumSide: 256)
            Issue.record("a 34-byte lossless 10000x10000 WebP was decoded")
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.description.contains("lossless"), "\(error)")
        }
        #expect(FormatRobustnessTests.peakMemory() - before < 48 << 20)
    }

    @Test func anAnimationFrameCountsTheMemoryItsDecoderHolds() throws {
        let small = ImageDecoder(limits: ImageLimits(maxDimension: 4096, maxPixels: 4_000_000))
        let file = WebPWriter.animation(canvas: (2000, 2000), frames: [
            .init(x: 0, y: 0, width: 2000, height: 2000, colour: (9, 9, 9)),
        ])
        let refused = Self.failure { () throws(ImagingError) in _ = try small.decode(file, minimumSide: 256) }
        #expect(refused == .tooLarge)
    }
}

/// Writes lossless WebP files of one colour, still or animated, bit by bit.
enum WebPWriter {
    struct Frame {
        var x, y, width, height: Int
        var colour: (UInt8, UInt8, UInt8)
    }

    /// A VP8L bitstream: five prefix codes of one symbol each (green, red, blue, alpha,
    /// distance), so every pixel is that colour and costs no bits.
    static func bitstream(width: Int, height: Int, colour: (UInt8, UInt8, UInt8)) -> [UInt8] {
        var bits = BitWriter()
        bits.put(width - 1, count: 14)
        bits.put(height - 1, count: 14)
        bits.put(0, count: 1 + 3 + 1 + 1 + 1)   // no alpha, version 0, no transform, colour cache or meta codes
        for symbol in [Int(colour.1), Int(colour.0), Int(colour.2), 255, 0] {
            bits.put(1, count: 1)   // a simple code
            bits.put(0, count: 1)   // of one symbol
            bits.put(1, count: 1)   // eight bits long
            bits.put(symbol, count: 8)
        }
        return [0x2F] + bits.bytes
    }

    static func still(width: Int, height: Int) -> [UInt8] {
        riff([chunk("VP8L", bitstream(width: width, height: height, colour: (128, 128, 128)))])
    }

    static func animation(canvas: (Int, Int), frames: [Frame]) -> [UInt8] {
        var chunks = [chunk("VP8X", [0x02, 0, 0, 0] + le(canvas.0 - 1, 3) + le(canvas.1 - 1, 3)),
                      chunk("ANIM", [0, 0, 0, 0, 0, 0])]
        for frame in frames {
            let header = le(frame.x / 2, 3) + le(frame.y / 2, 3) + le(frame.width - 1, 3) + le(frame.height - 1, 3)
                + le(100, 3) + [0]
            chunks.append(chunk("ANMF", header + chunk("VP8L", bitstream(width: frame.width, height: frame.height,
                                                                          colour: frame.colour))))
        }
        return riff(chunks)
    }

    static func riff(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = Array("WEBP".utf8) + chunks.flatMap { $0 }
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }

    static func chunk(_ tag: String, _ data: [UInt8]) -> [UInt8] {
        Array(tag.utf8) + le(data.count, 4) + data + (data.count % 2 == 1 ? [0] : [])
    }

    static func le(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    struct BitWriter {
        private var value: [Bool] = []
        mutating func put(_ number: Int, count: Int) {
            for bit in 0..<count { value.append(number >> bit & 1 == 1) }
        }
        var bytes: [UInt8] {
            stride(from: 0, to: value.count, by: 8).map { start in
                value[start..<min(start + 8, value.count)].enumerated()
                    .reduce(UInt8(0)) { $0 | ($1.element ? 1 << $1.offset : 0) }
            }
        }
    }
}

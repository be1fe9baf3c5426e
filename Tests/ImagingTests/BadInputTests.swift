import Imaging
import SeededRandom
import Testing

/// Bad input is normal input: every failure is a typed error with a one-line reason.
@Suite struct BadInputTests {
    let decoder = ImageDecoder()

    func expectError(_ kind: ImagingError.Kind, decoding bytes: [UInt8], mentioning text: String? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try decoder.decode(bytes)
            Issue.record("decoded without error; expected \(kind)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n") && !error.description.isEmpty, sourceLocation: sourceLocation)
            if let text { #expect(error.description.contains(text), "\(error)", sourceLocation: sourceLocation) }
        }
    }

    static func sampleJPEG(progressive: Bool = false) throws -> [UInt8] {
        try JPEGEncoder(quality: 90, progressive: progressive).encode(TestImages.photo(width: 96, height: 72))
    }

    static func samplePNG() throws -> [UInt8] {
        try PNGEncoder().encode(TestImages.gradient(width: 48, height: 40))
    }

    @Test func zeroBytesIsEmpty() {
        expectError(.empty, decoding: [], mentioning: "empty")
    }

    @Test func textIsNotAnImage() {
        expectError(.notAnImage, decoding: Array("this is a shopping list, not a photo\n".utf8), mentioning: "not an image")
    }

    @Test func otherFormatsAreNamed() {
        expectError(.notAnImage, decoding: Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0], mentioning: "GIF")
        expectError(.notAnImage, decoding: Array("BM".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], mentioning: "BMP")
        // WebP is read now: a RIFF WEBP header with nothing behind it is a damaged WebP.
        expectError(.corrupt, decoding: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), mentioning: "WebP")
    }

    @Test func aSignatureAloneIsTruncated() {
        expectError(.truncated, decoding: [0xFF, 0xD8])
        expectError(.truncated, decoding: [0x89, 0x50, 0x4E])
    }

    @Test func truncatedJPEGIsAnErrorNotAGrayFilledImage() throws {
        // libjpeg only warns about a premature end and fills the rest with gray; that warning
        // must stop the decode.
        let jpeg = try Self.sampleJPEG()
        expectError(.truncated, decoding: Array(jpeg.prefix(jpeg.count * 2 / 3)), mentioning: "truncated JPEG")
    }

    @Test func truncatedPNGIsAnError() throws {
        let png = try Self.samplePNG()
        expectError(.truncated, decoding: Array(png.prefix(png.count / 2)), mentioning: "truncated PNG")
    }

    @Test func corruptEntropyDataWarningIsAnError() throws {
        // A stray restart marker inside the scan: libjpeg warns "Corrupt JPEG data" and carries on.
        var jpeg = try Self.sampleJPEG()
        let middle = jpeg.count / 2
        jpeg.replaceSubrange(middle..<(middle + 2), with: [0xFF, 0xD5])
        do {
            _ = try decoder.decode(jpeg)
            Issue.record("a corrupt scan decoded without error")
        } catch {
            #expect(error.kind == .corrupt || error.kind == .truncated, "\(error)")
        }
    }

    @Test func corruptPNGDataIsAnError() throws {
        var png = try Self.samplePNG()
        png[png.count / 2] ^= 0x55   // inside IDAT: the chunk's CRC no longer matches
        expectError(.corrupt, decoding: png, mentioning: "corrupt PNG")
    }

    @Test func corruptJPEGHeaderIsAnError() throws {
        var jpeg = try Self.sampleJPEG()
        let sof = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 9] = 7   // seven components: no such JPEG
        expectError(.corrupt, decoding: jpeg, mentioning: "corrupt JPEG")
    }

    /// Markers without a frame: TurboJPEG takes SOI then EOI (with tables between, or bytes
    /// after) as a stream of tables alone and returns success with no size, recording no
    /// error. Asked why, it gave the last error any handle on the thread had recorded: "No
    /// error" in a fresh process, another file's "Premature end of JPEG file" after it.
    @Test(arguments: [
        [0xFF, 0xD8, 0xFF, 0xD9],
        [0xFF, 0xD8, 0xFF, 0xD9] + Array("hello".utf8),
        [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64) + [0xFF, 0xD9],
    ] as [[UInt8]])
    func aJPEGWithoutAFrameSaysItHoldsNoImage(bytes: [UInt8]) {
        expectError(.corrupt, decoding: bytes, mentioning: "no image data")
        #expect {
            _ = try decoder.header(of: bytes)
        } throws: { error in
            "\(error)".contains("no image data") && !"\(error)".lowercased().contains("no error")
        }
    }

    @Test func unreadableFilesNameTheFile() throws {
        let missing = "/nonexistent-\(UInt32.random(in: 0...UInt32.max))/photo.jpg"
        #expect {
            _ = try decoder.decode(contentsOf: missing)
        } throws: { error in
            let error = error as? ImagingError
            return error?.kind == .unreadable && error?.description.hasPrefix(missing + ": ") == true
                && error?.description.contains("No such file") == true
        }
        #expect {
            _ = try decoder.decode(contentsOf: "/tmp")
        } throws: { error in
            (error as? ImagingError)?.kind == .unreadable && "\(error)".contains("directory")
        }
    }

    @Test func aFileThatCannotBeWrittenSaysSoNamingIt() throws {
        let folder = "/nonexistent-\(UInt32.random(in: 0...UInt32.max))"
        let missingFolder = folder + "/tensor.png"
        #expect {
            try ImageFile.write([1, 2, 3], to: missingFolder)
        } throws: { error in
            let error = error as? ImagingError
            return error?.kind == .unwritable && error?.description == missingFolder + ": cannot write: the folder \(folder) does not exist"
        }
        #expect {
            try ImageFile.write([1, 2, 3], to: "/tmp")
        } throws: { error in
            (error as? ImagingError)?.kind == .unwritable && "\(error)".contains("directory")
        }
    }

    // MARK: limits

    /// The JPEG with its frame header claiming another size; the data stays small.
    static func jpeg(claiming width: Int, _ height: Int) throws -> [UInt8] {
        var jpeg = try sampleJPEG()
        let sof = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 5] = UInt8(height >> 8); jpeg[sof + 6] = UInt8(height & 0xFF)
        jpeg[sof + 7] = UInt8(width >> 8); jpeg[sof + 8] = UInt8(width & 0xFF)
        return jpeg
    }

    /// A PNG whose IHDR (with a correct CRC) claims another size.
    static func png(claiming width: Int, _ height: Int) throws -> [UInt8] {
        var png = try samplePNG()
        for (offset, value) in [(16, width), (20, height)] {
            for i in 0..<4 { png[offset + i] = UInt8((value >> (24 - 8 * i)) & 0xFF) }
        }
        let crc = CRC32.checksum(png[12..<29])
        for i in 0..<4 { png[29 + i] = UInt8((crc >> (24 - 8 * i)) & 0xFF) }
        return png
    }

    @Test func decompressionBombsAreRefusedFromTheHeader() throws {
        expectError(.tooLarge, decoding: try Self.jpeg(claiming: 20_000, 20_000), mentioning: "100.0 megapixels")
        expectError(.tooLarge, decoding: try Self.png(claiming: 30_000, 30_000), mentioning: "100.0 megapixels")
        expectError(.tooLarge, decoding: try Self.png(claiming: 60_000, 10), mentioning: "per side")
        expectError(.tooLarge, decoding: try Self.jpeg(claiming: 65_000, 8), mentioning: "per side")
    }

    @Test func limitsAreConfigurable() throws {
        let strict = ImageDecoder(limits: ImageLimits(maxDimension: 64, maxPixels: 1_000))
        #expect(throws: ImagingError.self) { try strict.decode(try Self.samplePNG()) }     // 48x40 = 1920 pixels
        #expect(throws: ImagingError.self) { try strict.decode(try Self.sampleJPEG()) }    // 96 wide
        let header = try ImageDecoder().header(of: try Self.png(claiming: 30_000, 30_000))
        #expect(header.width == 30_000 && header.height == 30_000)
    }

    // MARK: fuzzing

    @Test(arguments: ["baseline", "progressive", "png"])
    func everyCutIsAnErrorAndNothingCrashes(kind: String) throws {
        let bytes = kind == "png" ? try Self.samplePNG() : try Self.sampleJPEG(progressive: kind == "progressive")
        #expect(try decoder.decode(bytes).bitmap.width > 0)
        var cuts = Array(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)))
        cuts += Array((bytes.count - 40)..<bytes.count) + Array(0..<40)
        for cut in Set(cuts) {
            do {
                _ = try decoder.decode(Array(bytes.prefix(cut)))
                Issue.record("\(kind) cut at \(cut) of \(bytes.count) bytes decoded without error")
            } catch {
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test(arguments: ["baseline", "progressive", "png"])
    func flippedBytesNeverCrash(kind: String) throws {
        let bytes = kind == "png" ? try Self.samplePNG() : try Self.sampleJPEG(progressive: kind == "progressive")
        var random = SplitMix64(seed: 42)
        var failures = 0
        for round in 0..<600 {
            var damaged = bytes
            for _ in 0..<(1 + round % 4) {
                let index = Int(random.next() % UInt64(bytes.count))
                damaged[index] ^= UInt8(1 + random.next() % 255)
            }
            do {
                let decoded = try decoder.decode(damaged)
                #expect(decoded.bitmap.pixels.count == decoded.bitmap.width * decoded.bitmap.height * decoded.bitmap.channels)
            } catch {
                failures += 1
                #expect(!error.description.isEmpty && !error.description.contains("\n"))
            }
        }
        // Most damage is noticed (PNG by its CRCs, JPEG by its structure and warnings).
        #expect(failures > (kind == "png" ? 550 : 200), "\(failures) of 600 damaged files failed")
    }
}

/// The PNG chunk checksum, for making headers that pass libpng's CRC check.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

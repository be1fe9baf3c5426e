import Foundation
import Glibc
import Imaging
import Testing

/// `ImageFile.read` looks at a file's first bytes before reading it whole: what is no image
/// is refused from them, with the reason decoding would give, so a gigabyte of something
/// else named .jpg costs a few hundred bytes of reading, not a gigabyte of memory and seconds
/// of reading and hashing. Images are read whole, as before.
@Suite struct ImageFileSniffingTests {
    let folder = NSTemporaryDirectory() + "imaging-sniff-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The reason `ImageFile.read` gives for `path`, which must fail; nil when it reads it.
    func refusal(_ path: String) -> ImagingError? {
        do {
            _ = try ImageFile.read(path)
            return nil
        } catch {
            return error
        }
    }

    /// What decoding `bytes` says.
    func decodeReason(_ bytes: [UInt8]) -> String? {
        do {
            _ = try ImageDecoder().decode(bytes)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func aGigabyteThatIsNoImageIsRefusedWithoutBeingRead() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Sparse: all zeros, as large as a file may be. Read whole, it took a gigabyte.
        let path = try write([], to: "zeros.jpg")
        #expect(truncate(path, off_t(ImageFile.maxFileSize)) == 0)
        let before = FormatRobustnessTests.peakMemory()
        let started = ContinuousClock.now
        let error = refusal(path)
        let grown = FormatRobustnessTests.peakMemory() - before
        #expect(error?.kind == .notAnImage && error?.path == path, "\(String(describing: error))")
        #expect(error?.reason == decodeReason([UInt8](repeating: 0, count: 64)))
        #expect(grown < 128 << 20, "refusing a 1 GiB file that is no image took \(grown >> 20) MB more")
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func everyReasonIsTheOneDecodingGives() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = Array(String(repeating: "this is a shopping list, not a photo\n", count: 100).utf8)
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 1, count: 1000)
        let cases: [(name: String, bytes: [UInt8], kind: ImagingError.Kind)] = [
            ("empty.jpg", [], .empty),
            ("signature.jpg", [0xFF, 0xD8], .truncated),
            ("notes.jpg", text, .notAnImage),
            ("animation.png", gif, .notAnImage),
        ]
        for (name, bytes, kind) in cases {
            let error = refusal(try write(bytes, to: name))
            #expect(error?.kind == kind && error?.reason == decodeReason(bytes), "\(name): \(String(describing: error))")
        }
    }

    @Test(arguments: [10, 255, 256, 257, 100_000])
    func imagesAreReadWhole(size: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A JPEG signature and then anything: reading does not decode.
        let bytes = [0xFF, 0xD8, 0xFF] + (3..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(try ImageFile.read(try write(bytes, to: "photo.jpg")) == bytes)
    }
}

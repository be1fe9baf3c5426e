import Files
import Foundation
import Imaging
import Testing

/// Files whose stat size is not what they hold (those under /proc say 0): every file the tool
/// reads whole goes through `RegularFile.read`, which reads to the end and holds the limit
/// against what it read, not against what the file said.
@Suite struct SizelessFileTests {
    static let file = "/proc/self/status"

    @Test func aFileThatSaysZeroBytesIsReadToItsEnd() throws {
        let bytes = try RegularFile.read(Self.file, maxSize: ImageFile.maxFileSize)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("Name:"), "\(bytes.count) bytes")
        #expect(bytes.count > 256)
        // Its first bytes alone, as an image's are read to sniff them.
        let head = try RegularFile.read(Self.file, maxSize: ImageFile.maxFileSize, first: 16)
        #expect(head.count == 16 && String(decoding: head, as: UTF8.self).hasPrefix("Name:"))
        // Read as a photo, it is refused from those bytes for what it is.
        let refused = #expect(throws: ImagingError.self) { try ImageFile.read(Self.file) }
        #expect(refused?.kind == .notAnImage && refused?.path == Self.file, "\(String(describing: refused))")
    }

    @Test func theLimitHoldsForWhatIsRead() throws {
        let refused = #expect(throws: RegularFile.Failure.self) { try RegularFile.read(Self.file, maxSize: 16) }
        #expect(refused?.kind == .tooLarge && refused?.reason == "file holds more than the 16 bytes accepted")
        let whole = try RegularFile.read(Self.file, maxSize: 1 << 20)
        #expect(whole.count > 16)
    }
}

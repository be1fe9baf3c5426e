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
        let bytes = try ImageFile.read(Self.file)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("Name:"), "\(bytes.count) bytes")
    }

    @Test func theLimitHoldsForWhatIsRead() throws {
        let refused = #expect(throws: RegularFile.Failure.self) { try RegularFile.read(Self.file, maxSize: 16) }
        #expect(refused?.kind == .tooLarge && refused?.reason == "file holds more than the 16 bytes accepted")
        let whole = try RegularFile.read(Self.file, maxSize: 1 << 20)
        #expect(whole.count > 16)
    }
}

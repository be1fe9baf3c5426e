import Foundation

/// What a catalogue's files still hold of bytes that were removed (`forget`'s promise).
public enum FileBytes {
    /// True when any 256-byte piece of `needle` is in the file: a long
    /// blob is split over several pages, so it is never in one piece.
    public static func contains(_ file: String, _ needle: [UInt8]) -> Bool {
        guard let data = FileManager.default.contents(atPath: file) else { return false }
        return stride(from: 0, to: needle.count - 256, by: 256).contains {
            data.range(of: Data(needle[$0..<$0 + 256])) != nil
        }
    }
}

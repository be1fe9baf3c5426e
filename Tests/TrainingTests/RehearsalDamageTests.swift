import Foundation
import Testing
import Training

/// A rehearsal file damaged in ways the model reader already refused: the rehearsal reader
/// (Foundation's JSON, no check of the data's bytes) read them as photos, so a fine-tune
/// rehearsed and calibrated on something else than what the file says, or said of a file
/// cut short that it had 'no tensor held_out of shape [N] that the file can hold'.
@Suite struct RehearsalDamageTests {
    static let rehearsal = Rehearsal(learned: SoftTargetTests.tensors(4, seed: 7), heldOut: SoftTargetTests.tensors(2, seed: 8),
                                     recipe: "photo@4")
    static let bytes = rehearsal.serialized()
    static var headerLength: Int { (0..<8).reduce(0) { $0 | Int(bytes[$1]) << (8 * $1) } }

    /// The file with its header's text changed by `change`, padded again.
    static func withHeader(_ change: (String) -> String) -> [UInt8] {
        var json = Array(change(String(decoding: bytes[8..<(8 + headerLength)], as: UTF8.self)).utf8)
        while (8 + json.count) % 8 != 0 { json.append(0x20) }
        return (0..<8).map { UInt8(UInt64(json.count) >> (8 * UInt64($0)) & 0xff) } + json + bytes[(8 + headerLength)...]
    }

    /// Two `recipe` keys: Foundation kept the last, another reader may keep the first.
    @Test func aKeyNamedTwiceIsRefused() throws {
        let twice = Self.withHeader { $0.replacingOccurrences(of: "\"recipe\":\"photo@4\"",
                                                              with: "\"recipe\":\"photo@4\",\"recipe\":\"fashion-mnist@1\"") }
        #expect(throws: TrainingError.self) { try Rehearsal(bytes: twice) }
        do {
            _ = try Rehearsal(bytes: twice)
        } catch {
            #expect(error.description.hasPrefix("not a rehearsal file: a key is named twice in one object ("), "\(error)")
        }
    }

    /// Bytes after the three tensors, which a second entry of a name could point at.
    @Test func dataBytesOfNoTensorAreRefused() {
        #expect(throws: TrainingError.badRehearsal("16 of the \(Self.bytes.count - 8 - Self.headerLength + 16) data bytes belong to no tensor")) {
            try Rehearsal(bytes: Self.bytes + [UInt8](repeating: 0, count: 16))
        }
    }

    /// An accepted flag is 0 or 1, as a held_out flag is: 200 was read as a label.
    @Test func anAcceptedFlagOtherThanZeroOrOneIsRefused() {
        var changed = Self.bytes
        changed[8 + Self.headerLength + 10 + 9] = 200   // the second photo's last accepted flag
        #expect(throws: TrainingError.badRehearsal("photo 1 has an accepted flag 200, not 0 or 1")) { try Rehearsal(bytes: changed) }
    }

    /// A tensor of another dtype, or offsets that are no whole numbers, say so: both were
    /// 'no U8 tensor with a shape and data_offsets', of a tensor that was there.
    @Test func aTensorOfAnotherDtypeOrOffsetsSaysWhich() {
        let float = Self.withHeader { $0.replacingOccurrences(of: "\"dtype\":\"U8\",\"shape\":[6,28,28]",
                                                              with: "\"dtype\":\"F32\",\"shape\":[6,28,28]") }
        #expect(throws: TrainingError.badRehearsal("'images' has dtype F32, expected U8")) { try Rehearsal(bytes: float) }
        let huge = Self.withHeader { $0.replacingOccurrences(of: "\"held_out\":{\"data_offsets\":[60,66]",
                                                             with: "\"held_out\":{\"data_offsets\":[6e1,1e300]") }
        #expect(throws: TrainingError.badRehearsal("'held_out' has no shape and data_offsets [begin, end] of whole numbers")) {
            try Rehearsal(bytes: huge)
        }
    }

    /// Cut anywhere in its data, the file is said to be truncated.
    @Test func aFileCutInItsDataIsSaidToBeTruncated() throws {
        let data = Self.bytes.count - 8 - Self.headerLength
        for kept in [0, 6, 6 + 60, data - 1] {
            #expect(throws: TrainingError.self) { try Rehearsal(bytes: Array(Self.bytes.prefix(8 + Self.headerLength + kept))) }
            do {
                _ = try Rehearsal(bytes: Array(Self.bytes.prefix(8 + Self.headerLength + kept)))
            } catch {
                #expect(error.description.hasSuffix("it is truncated") || error.description.hasSuffix("the file is truncated"),
                        "\(kept) data bytes: \(error)")
            }
        }
        #expect(try Rehearsal(bytes: Self.bytes) == Self.rehearsal)
    }
}

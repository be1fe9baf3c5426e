import Foundation
import Inference

/// The prepared photos a model learned from, and those it held out, kept in
/// a file beside the model so that a later fine-tune can rehearse them: a
/// fine-tune that saw only a person's corrections would forget the photos
/// its parent learned from (catastrophic forgetting), and the corrections
/// are always skewed toward what was wrong.
///
/// On disk it is a safetensors container, so standard tools read it: `images`
/// (U8 `[N, 28, 28]`, the tensor's values times 255), `accepted` (U8
/// `[N, 10]`, 1 where a label counts as right) and `held_out` (U8 `[N]`, 1
/// for a photo the model never learned from: what a fine-tune calibrates
/// on), and `__metadata__` naming the format and the prep recipe. Derived
/// tensors only: no photo can be recovered from 28x28 grey.
public struct Rehearsal: Sendable, Equatable {
    public static let formatName = "wardrobe.rehearsal"
    public static let formatVersion = "1"
    /// Larger files are refused unread: the bundled model's is about 3 MB.
    public static let maxFileSize = 1 << 30

    public var learned: LabelledTensors
    public var heldOut: LabelledTensors
    /// The prep recipe the tensors were made with ("photo@4").
    public var recipe: String

    public init(learned: LabelledTensors, heldOut: LabelledTensors, recipe: String) {
        self.learned = learned
        self.heldOut = heldOut
        self.recipe = recipe
    }

    /// Where the rehearsal of the model at `modelPath` lives: `NAME.aimodel`
    /// beside `NAME.rehearsal.safetensors`.
    public static func path(besideModel modelPath: String) -> String {
        let url = URL(fileURLWithPath: modelPath)
        let stem = url.pathExtension == "aimodel" ? url.deletingPathExtension() : url
        return stem.path + ".rehearsal.safetensors"
    }

    // MARK: - Bytes

    private static let pixels = LabelledTensors.valuesPerExample
    private static let classes = FashionMNIST.labels.count

    /// The file's bytes: tensors in name order, as safetensors writers lay them out.
    public func serialized() -> [UInt8] {
        let count = learned.count + heldOut.count
        var images: [UInt8] = []
        var accepted: [UInt8] = []
        var flags: [UInt8] = []
        images.reserveCapacity(count * Self.pixels)
        for (set, flag) in [(learned, UInt8(0)), (heldOut, UInt8(1))] {
            images += set.values.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
            for i in 0..<set.count {
                accepted += (0..<Self.classes).map { set.isAccepted($0, at: i) ? 1 : 0 }
                flags.append(flag)
            }
        }
        let tensors: [(String, [Int], [UInt8])] = [
            ("accepted", [count, Self.classes], accepted), ("held_out", [count], flags),
            ("images", [count, 28, 28], images),
        ]
        var header: [String: Any] = ["__metadata__": ["format": Self.formatName, "format_version": Self.formatVersion,
                                                     "recipe": recipe]]
        var data: [UInt8] = []
        for (name, shape, bytes) in tensors {
            header[name] = ["dtype": "U8", "shape": shape, "data_offsets": [data.count, data.count + bytes.count]]
            data += bytes
        }
        var json = [UInt8](try! JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
        while (8 + json.count) % 8 != 0 { json.append(0x20) }
        var bytes = (0..<8).map { UInt8(UInt64(json.count) >> (8 * UInt64($0)) & 0xff) }
        bytes += json
        bytes += data
        return bytes
    }

    /// Parses a whole file; every size and offset is checked before use, so a
    /// damaged file is an error naming what is wrong, never a crash. The header is
    /// read as the model reader reads its own (`StrictJSON`), and the data holds the
    /// three tensors and nothing else: a key named twice, or bytes no tensor claims,
    /// leave which photos the file holds to the reader that looks.
    public init(bytes: [UInt8]) throws(TrainingError) {
        func bad(_ reason: String) -> TrainingError { .badRehearsal(reason) }
        guard bytes.count >= 8 else { throw bad("\(bytes.count) bytes, the header length alone needs 8") }
        let headerLength = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[$1]) << (8 * UInt64($1)) }
        guard headerLength <= 1 << 20, headerLength <= UInt64(bytes.count - 8) else {
            throw bad("header length \(headerLength) does not fit the file's \(bytes.count) bytes (or is over 1 MiB)")
        }
        let dataStart = 8 + Int(headerLength)
        let parsed: StrictJSON
        do {
            parsed = try StrictJSON.parse(bytes[8..<dataStart])
        } catch {
            switch error {
            case .repeatedKey(let detail): throw bad("a key is named twice in one object (\(detail)); the file is ambiguous")
            case .invalid(let detail): throw bad("the header is not JSON (\(detail))")
            }
        }
        guard let header = parsed.object else { throw bad("the header is not a JSON object") }
        guard let entries = header["__metadata__"]?.object, case let metadata = entries.compactMapValues(\.string),
              metadata.count == entries.count, metadata["format"] == Self.formatName else {
            throw bad("no __metadata__ map of strings naming the format \(Self.formatName)")
        }
        guard metadata["format_version"] == Self.formatVersion else {
            throw bad("format version \(metadata["format_version"] ?? "none"), this tool reads \(Self.formatVersion)")
        }
        guard let recipe = metadata["recipe"], !recipe.isEmpty else { throw bad("no recipe in __metadata__") }
        let dataLength = bytes.count - dataStart
        guard let flagShape = header["held_out"]?.object?["shape"]?.integers, flagShape.count == 1, flagShape[0] >= 0 else {
            throw bad("no tensor 'held_out' of shape [N], one flag a photo")
        }
        let count = flagShape[0]
        // Each photo takes its image, its ten accepted flags and its held-out flag. A file cut
        // short was said as having 'no tensor held_out of shape [N] that the file can hold'.
        let perPhoto = Self.pixels + Self.classes + 1
        guard count <= dataLength / perPhoto else {
            throw bad("its header lists \(count) photos, \(perPhoto) bytes each, but the file holds \(dataLength) bytes of "
                      + "data after its header: it is truncated")
        }
        var ranges: [(range: Range<Int>, name: String)] = []
        func tensor(_ name: String, shape expected: [Int]) throws(TrainingError) -> ArraySlice<UInt8> {
            guard let entry = header[name]?.object else { throw bad("no tensor '\(name)'") }
            guard entry["dtype"]?.string == "U8" else { throw bad("'\(name)' has dtype \(entry["dtype"]?.string ?? "none"), expected U8") }
            guard let shape = entry["shape"]?.integers, let offsets = entry["data_offsets"]?.integers, offsets.count == 2 else {
                throw bad("'\(name)' has no shape and data_offsets [begin, end] of whole numbers")
            }
            guard shape == expected else { throw bad("'\(name)' has shape \(shape), expected \(expected)") }
            let size = expected.reduce(1, *)
            // Each bound is compared before any sum or difference of them is taken: this module
            // is built without overflow checks, and offsets near 2^63 whose difference wrapped
            // around to the right size read memory outside the file (a crash).
            guard offsets[0] >= 0, offsets[0] <= offsets[1] else { throw bad("'\(name)' has data_offsets \(offsets), not [begin, end]") }
            guard offsets[1] <= dataLength else {
                throw bad("'\(name)' ends at byte \(offsets[1]) of the data, which holds \(dataLength): the file is truncated")
            }
            guard offsets[1] - offsets[0] == size else {
                throw bad("'\(name)' of shape \(shape) needs \(size) bytes, its data_offsets give \(offsets[1] - offsets[0])")
            }
            ranges.append((offsets[0]..<offsets[1], name))
            return bytes[(dataStart + offsets[0])..<(dataStart + offsets[1])]
        }
        let flags = try tensor("held_out", shape: [count])
        let accepted = try tensor("accepted", shape: [count, Self.classes])
        let images = try tensor("images", shape: [count, 28, 28])
        // As the model reader refuses them: two tensors on the same bytes made photos of the
        // labels' bytes, rehearsed and calibrated on as if they were the parent's photos.
        ranges.sort { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
        for (previous, next) in zip(ranges, ranges.dropFirst()) where next.range.lowerBound < previous.range.upperBound {
            throw bad("'\(previous.name)' and '\(next.name)' overlap")
        }
        let covered = ranges.reduce(0) { $0 + $1.range.count }
        guard covered == dataLength else { throw bad("\(dataLength - covered) of the \(dataLength) data bytes belong to no tensor") }
        var learned = LabelledTensors(), heldOut = LabelledTensors()
        for i in 0..<count {
            let row = accepted[(accepted.startIndex + i * Self.classes)..<(accepted.startIndex + (i + 1) * Self.classes)]
            // A flag is 0 or 1, as held_out's are: any other byte is damage, not a label.
            if let flag = row.first(where: { $0 > 1 }) { throw bad("photo \(i) has an accepted flag \(flag), not 0 or 1") }
            let labels = (0..<Self.classes).filter { row[row.startIndex + $0] != 0 }
            guard !labels.isEmpty else { throw bad("photo \(i) accepts no label") }
            let start = images.startIndex + i * Self.pixels
            let tensor = images[start..<(start + Self.pixels)].map { Float($0) / 255 }
            switch flags[flags.startIndex + i] {
            case 0: learned.append(tensor, accepted: labels)
            case 1: heldOut.append(tensor, accepted: labels)
            case let flag: throw bad("photo \(i) has held_out \(flag), not 0 or 1")
            }
        }
        self.init(learned: learned, heldOut: heldOut, recipe: recipe)
    }
}

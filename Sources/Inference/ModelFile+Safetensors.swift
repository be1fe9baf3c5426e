import CJansson
import Foundation

extension ModelFile {
    /// Parses a whole safetensors container. Every offset and size is checked
    /// against the buffer before it is used, so a damaged file is an error,
    /// never a crash.
    public init(bytes: [UInt8]) throws(ModelError) {
        guard bytes.count >= 8 else {
            throw .truncated("\(bytes.count) bytes, the header length alone needs 8")
        }
        var headerLength: UInt64 = 0
        for i in 0..<8 { headerLength |= UInt64(bytes[i]) << (8 * UInt64(i)) }
        guard headerLength <= 100_000_000 else {
            throw .badHeader("header length \(headerLength) is implausible (more than 100 MB); not a model file")
        }
        guard headerLength <= UInt64(bytes.count - 8) else {
            throw .truncated("header says \(headerLength) bytes of JSON, file has \(bytes.count - 8) after the length")
        }
        let dataStart = 8 + Int(headerLength)
        let header: [String: Any]
        do {
            let json = try JSONSerialization.jsonObject(with: Data(bytes[8..<dataStart]))
            guard let object = json as? [String: Any] else { throw ModelError.badHeader("not a JSON object") }
            header = object
        } catch let error as ModelError {
            throw error
        } catch {
            throw .badHeader("invalid JSON")
        }
        try Self.refuseRepeatedKeys(bytes[8..<dataStart])
        guard let metadata = header["__metadata__"] as? [String: String] else {
            throw .badMetadata("no __metadata__ map of strings")
        }
        let description = try ModelDescription(metadata: metadata)
        let dataLength = bytes.count - dataStart

        var tensors: [String: NDArray] = [:]
        var ranges: [(Range<Int>, String)] = []
        for (name, value) in header where name != "__metadata__" {
            guard let entry = value as? [String: Any] else { throw .badTensor(name: name, reason: "entry is not an object") }
            guard let dtype = entry["dtype"] as? String else { throw .badTensor(name: name, reason: "no dtype") }
            guard dtype == "F32" else { throw .badTensor(name: name, reason: "dtype \(dtype), only F32 is supported") }
            guard let shape = Self.integers(entry["shape"]), shape.allSatisfy({ $0 >= 0 && $0 < 1 << 31 }) else {
                throw .badTensor(name: name, reason: "shape is not a list of non-negative integers")
            }
            guard let offsets = Self.integers(entry["data_offsets"]), offsets.count == 2,
                  offsets[0] >= 0, offsets[0] <= offsets[1] else {
                throw .badTensor(name: name, reason: "data_offsets is not [begin, end] with begin <= end")
            }
            guard offsets[1] <= dataLength else {
                throw .truncated("tensor '\(name)' ends at byte \(offsets[1]) of data, file holds \(dataLength)")
            }
            var count = 1
            for dimension in shape {
                let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
                guard !overflow, product <= dataLength / 4 + 1 else {
                    throw .badTensor(name: name, reason: "shape \(shape) is larger than the file")
                }
                count = product
            }
            guard offsets[1] - offsets[0] == count * 4 else {
                throw .badTensor(name: name, reason: "shape \(shape) needs \(count * 4) bytes, offsets give \(offsets[1] - offsets[0])")
            }
            ranges.append((offsets[0]..<offsets[1], name))
            let scalars = Self.floats(bytes, from: dataStart + offsets[0], count: count)
            if let index = scalars.firstIndex(where: { !$0.isFinite }) {
                throw .badTensor(name: name, reason: "value \(index) is \(scalars[index]); weights must be finite")
            }
            tensors[name] = NDArray(shape: shape, scalars: scalars)
        }
        ranges.sort { ($0.0.lowerBound, $0.0.upperBound, $0.1) < ($1.0.lowerBound, $1.0.upperBound, $1.1) }
        for (previous, next) in zip(ranges, ranges.dropFirst()) where next.0.lowerBound < previous.0.upperBound {
            throw .badHeader("tensors '\(previous.1)' and '\(next.1)' overlap")
        }
        // As in safetensors, the data holds the tensors and nothing else.
        let covered = ranges.reduce(0) { $0 + $1.0.count }
        guard covered == dataLength else {
            throw .badHeader("\(dataLength - covered) of the \(dataLength) data bytes belong to no tensor")
        }
        self.init(description: description, tensors: tensors)
    }

    /// Foundation's reader keeps one of two entries that share a name and
    /// drops the other without a word, so a header naming a tensor twice
    /// (each entry with its own offsets) could load other bytes as that
    /// tensor than a reader keeping the first would, and still pass every
    /// check. Jansson's strict mode refuses any object with a repeated key.
    private static func refuseRepeatedKeys(_ header: ArraySlice<UInt8>) throws(ModelError) {
        var error = json_error_t()
        let parsed = header.withUnsafeBufferPointer { json in
            json_loadb(json.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, json.count,
                       Int(JSON_REJECT_DUPLICATES), &error)
        }
        guard let parsed else {
            let detail = withUnsafeBytes(of: error.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw .badHeader(json_error_code(&error) == json_error_duplicate_key
                ? "a key is named twice in one object (\(detail), byte \(error.position)); the file is ambiguous"
                : "invalid JSON (\(detail))")
        }
        json_decref(parsed)
    }

    /// Integers from a JSON array: whole numbers only, no fractions or strings.
    private static func integers(_ value: Any?) -> [Int]? {
        guard let items = value as? [Any] else { return nil }
        var result: [Int] = []
        for item in items {
            guard let number = item as? NSNumber,
                  let double = Double(exactly: number.doubleValue), double.rounded() == double,
                  abs(double) < 9.0e15 else { return nil }
            result.append(Int(double))
        }
        return result
    }

    /// Little-endian float32 values at `offset`, already checked to lie inside `bytes`.
    private static func floats(_ bytes: [UInt8], from offset: Int, count: Int) -> [Float] {
        [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { raw in
                for i in 0..<count {
                    let bits = raw.loadUnaligned(fromByteOffset: offset + 4 * i, as: UInt32.self)
                    buffer[i] = Float(bitPattern: UInt32(littleEndian: bits))
                }
            }
            initialized = count
        }
    }

    /// The file's bytes: tensors sorted by name, data packed in that order.
    public func serialized() -> [UInt8] {
        var entries: [String: Any] = ["__metadata__": description.metadata()]
        var data: [UInt8] = []
        for name in tensors.keys.sorted() {
            let tensor = tensors[name]!
            let begin = data.count
            data.reserveCapacity(data.count + tensor.count * 4)
            for value in tensor.scalars {
                let bits = value.bitPattern
                data.append(UInt8(bits & 0xff)); data.append(UInt8(bits >> 8 & 0xff))
                data.append(UInt8(bits >> 16 & 0xff)); data.append(UInt8(bits >> 24))
            }
            entries[name] = ["dtype": "F32", "shape": tensor.shape, "data_offsets": [begin, data.count]]
        }
        var header = [UInt8](try! JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys]))
        // Pad with spaces so the data starts 8-byte aligned, as safetensors writers do.
        while (8 + header.count) % 8 != 0 { header.append(0x20) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + header.count + data.count)
        for i in 0..<8 { bytes.append(UInt8(UInt64(header.count) >> (8 * UInt64(i)) & 0xff)) }
        bytes += header
        bytes += data
        return bytes
    }
}

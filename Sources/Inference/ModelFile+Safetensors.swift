import Foundation

extension ModelFile {
    /// Parses a whole safetensors container. Every offset and size is checked
    /// against the buffer before it is used, so a damaged file is an error,
    /// never a crash.
    /// The largest JSON header read: a hundred times the bundled model's.
    public static let maximumHeaderBytes = 1 << 20

    public init(bytes: [UInt8]) throws(ModelError) {
        guard bytes.count >= 8 else {
            throw .truncated("\(bytes.count) bytes, the header length alone needs 8")
        }
        var headerLength: UInt64 = 0
        for i in 0..<8 { headerLength |= UInt64(bytes[i]) << (8 * UInt64(i)) }
        // The bundled model's header is under 10 KB; a header of megabytes (of padding, of
        // names) is refused before it is parsed, which took 29 s and 2.6 GB for 98 MB.
        guard headerLength <= UInt64(Self.maximumHeaderBytes) else {
            throw .badHeader("header length \(headerLength) is more than \(Self.maximumHeaderBytes / 1024) KB; a model's header "
                             + "is a few KB (not a model file, or a damaged one)")
        }
        guard headerLength <= UInt64(bytes.count - 8) else {
            throw .truncated("header says \(headerLength) bytes of JSON, file has \(bytes.count - 8) after the length")
        }
        let dataStart = 8 + Int(headerLength)
        let parsed: StrictJSON
        do {
            parsed = try StrictJSON.parse(bytes[8..<dataStart])
        } catch {
            switch error {
            case .repeatedKey(let detail):
                throw .badHeader("a key is named twice in one object (\(detail)); the file is ambiguous")
            case .invalid(let detail):
                throw .badHeader("invalid JSON (\(detail))")
            }
        }
        guard let header = parsed.object else { throw .badHeader("not a JSON object") }
        guard let metadataEntries = header["__metadata__"]?.object,
              case let metadata = metadataEntries.compactMapValues(\.string), metadata.count == metadataEntries.count else {
            throw .badMetadata("no __metadata__ map of strings")
        }
        let description = try ModelDescription(metadata: metadata)
        let dataLength = bytes.count - dataStart

        var tensors: [String: NDArray] = [:]
        var learnedImageDigests: [UInt8] = []
        var ranges: [(Range<Int>, String)] = []
        // In name order, so a file with several faults is refused for the same one every time
        // (the header's dictionary order changes from process to process).
        for (name, value) in header.sorted(by: { $0.key < $1.key }) where name != "__metadata__" {
            guard let entry = value.object else { throw .badTensor(name: name, reason: "entry is not an object") }
            guard let dtype = entry["dtype"]?.string else { throw .badTensor(name: name, reason: "no dtype") }
            // Every tensor is a weight but one: the learned images' digests, bytes. (An F32
            // tensor of that name, from a file made elsewhere, is a weight like any other.)
            let digests = name == Self.learnedImagesTensor && dtype == "U8"
            guard dtype == "F32" || digests else { throw .badTensor(name: name, reason: "dtype \(dtype), only F32 is supported") }
            let scalarSize = digests ? 1 : 4
            guard let shape = entry["shape"]?.integers else {
                throw .badTensor(name: name, reason: "shape is not a list of whole numbers")
            }
            guard shape.allSatisfy({ $0 >= 0 }) else {
                throw .badTensor(name: name, reason: "shape \(shape) has a negative dimension")
            }
            guard shape.allSatisfy({ $0 < 1 << 31 }) else {
                throw .badTensor(name: name, reason: "shape \(shape) has a dimension of 2^31 or more, larger than any file")
            }
            guard !digests || (shape.count == 2 && shape[1] == 32) else {
                throw .badTensor(name: name, reason: "shape \(shape) is not [N, 32], one SHA-256 digest a row")
            }
            guard let offsets = entry["data_offsets"]?.integers, offsets.count == 2,
                  offsets[0] >= 0, offsets[0] <= offsets[1] else {
                throw .badTensor(name: name, reason: "data_offsets is not [begin, end] with begin <= end")
            }
            guard offsets[1] <= dataLength else {
                throw .truncated("tensor '\(name)' ends at byte \(offsets[1]) of data, file holds \(dataLength)")
            }
            var count = 1
            for dimension in shape {
                let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
                guard !overflow, product <= dataLength / scalarSize + 1 else {
                    throw .badTensor(name: name, reason: "shape \(shape) is larger than the file")
                }
                count = product
            }
            guard offsets[1] - offsets[0] == count * scalarSize else {
                throw .badTensor(name: name, reason: "shape \(shape) needs \(count * scalarSize) bytes, offsets give \(offsets[1] - offsets[0])")
            }
            ranges.append((offsets[0]..<offsets[1], name))
            if digests {
                learnedImageDigests = Array(bytes[(dataStart + offsets[0])..<(dataStart + offsets[1])])
                continue
            }
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
        self.init(description: description, tensors: tensors, learnedImageDigests: learnedImageDigests)
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

    /// The file's bytes: tensors (the learned images' digests among them) sorted by name,
    /// data packed in that order.
    public func serialized() -> [UInt8] {
        precondition(learnedImageDigests.count % 32 == 0, "SHA-256 digests are 32 bytes each")
        precondition(learnedImageDigests.isEmpty || tensors[Self.learnedImagesTensor] == nil,
                     "a weight named \(Self.learnedImagesTensor) and learned images")
        var entries: [String: Any] = ["__metadata__": description.metadata()]
        var data: [UInt8] = []
        var names = Array(tensors.keys)
        if !learnedImageDigests.isEmpty { names.append(Self.learnedImagesTensor) }
        for name in names.sorted() {
            let begin = data.count
            guard let tensor = tensors[name] else {
                data += learnedImageDigests
                entries[name] = ["dtype": "U8", "shape": [learnedImageDigests.count / 32, 32], "data_offsets": [begin, data.count]]
                continue
            }
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

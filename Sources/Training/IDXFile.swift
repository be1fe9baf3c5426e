import CZlib
import Files
import Foundation

/// The IDX files of MNIST and Fashion-MNIST, gzip-compressed as the Debian
/// package `dataset-fashion-mnist` ships them.
///
/// Format: a 4-byte magic (`0x0000_08_NN`, NN the number of dimensions, 08 for
/// unsigned bytes), NN big-endian 32-bit sizes, then the bytes row-major.
public struct IDXFile: Sendable {
    public let dimensions: [Int]
    public let bytes: [UInt8]

    public init(gzipPath path: String) throws(DatasetError) {
        let raw = try Self.gunzip(path: path)
        guard raw.count >= 4, raw[0] == 0, raw[1] == 0, raw[2] == 0x08 else {
            throw .malformed(path: path, reason: "not an IDX file of unsigned bytes (wrong magic)")
        }
        let rank = Int(raw[3])
        guard rank >= 1, raw.count >= 4 + 4 * rank else {
            throw .malformed(path: path, reason: "header is shorter than its \(rank) dimensions")
        }
        var dimensions: [Int] = []
        for d in 0..<rank {
            let p = 4 + 4 * d
            dimensions.append(Int(raw[p]) << 24 | Int(raw[p + 1]) << 16 | Int(raw[p + 2]) << 8 | Int(raw[p + 3]))
        }
        let expected = dimensions.reduce(1, *)
        let start = 4 + 4 * rank
        guard raw.count - start == expected else {
            throw .malformed(path: path, reason: "dimensions \(dimensions) need \(expected) bytes, file holds \(raw.count - start)")
        }
        self.dimensions = dimensions
        self.bytes = Array(raw[start...])
    }

    private static func gunzip(path: String) throws(DatasetError) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        // Opened as a regular file first: a FIFO in its place is refused, not waited on.
        let opened: Int32
        do {
            opened = try RegularFile.open(path).descriptor
        } catch {
            throw .malformed(path: path, reason: "cannot open: \(error.reason)")
        }
        guard let file = gzdopen(opened, "rb") else {
            close(opened)
            throw .malformed(path: path, reason: "cannot open")
        }
        defer { gzclose(file) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let read = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
            if read < 0 { throw .malformed(path: path, reason: "gzip data is corrupt") }
            if read == 0 { break }
            output += chunk[0..<Int(read)]
        }
        return output
    }
}

public enum DatasetError: Error, Equatable, CustomStringConvertible {
    case missing(path: String)
    case malformed(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            "\(path) not found: install the Debian package dataset-fashion-mnist (make deps) or pass --data DIR"
        case .malformed(let path, let reason): "\(path): \(reason)"
        }
    }
}

import Foundation
import Glibc
import Imaging
import Testing

/// The HEVC and AV1 decoders under libheif print their own lines for damaged data
/// (`Error parsing OBU data`, `SPS error: ...`): 63 in 4,200 mutants, lines that do not start
/// with `error:` and, with several workers, name no file. The decode's own error says what
/// happened, with the file's name; the libraries' lines go nowhere.
@Suite(.serialized) struct LibraryOutputTests {
    // It takes over the process's standard error while other suites run beside it, and
    // so catches what they print: it failed a whole `make test` that way. To run alone:
    // swift test -c release --skip-build --filter LibraryOutputTests (after removing the trait).
    @Test(.disabled("takes over the test runner's standard error, which parallel suites write to"))
    func damagedHEIFAndAVIFWriteNothingOnStandardError() throws {
        let decoder = ImageDecoder(limits: ImageLimits(maxDimension: 4096, maxPixels: 4_000_000))
        let captured = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)").path
        defer { unlink(captured) }
        let file = open(captured, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        let saved = dup(STDERR_FILENO)
        dup2(file, STDERR_FILENO)
        var failures = 0
        for name in ["orientation/avif-6.avif", "features/alpha.avif", "orientation/heic-6.heic", "features/alpha.heic"] {
            let bytes = try FormatDecodingTests.fixture(name)
            var random = SplitMix(seed: 7)
            for round in 0..<400 {
                var damaged = bytes
                for _ in 0..<(1 + round % 4) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    damaged[index] ^= UInt8(1 + random.next() % 255)
                }
                do {
                    _ = try decoder.decode(damaged, minimumSide: round % 2 == 0 ? 256 : nil)
                } catch {
                    failures += 1
                }
            }
        }
        dup2(saved, STDERR_FILENO)
        close(saved)
        close(file)
        let written = try String(contentsOfFile: captured, encoding: .utf8)
        #expect(failures > 0)
        #expect(written.isEmpty, "the libraries wrote \(written.split(separator: "\n").count) lines: \(written.prefix(300))")
    }
}

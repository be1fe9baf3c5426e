extension Array where Element: BitwiseCopyable {
    /// `count` elements, every one of which `fill` writes. Pixel buffers handed to a decoder or
    /// filled by a loop are overwritten whole, so zeroing them first (as `repeating: 0` does)
    /// is a second pass over every byte for nothing; for the small images an import works on,
    /// that pass is a visible share of the per-image cost. `fill` must write all `count`
    /// elements, or throw: an array is never returned with elements it did not write.
    init<Failure: Error>(overwriting count: Int,
                         _ fill: (UnsafeMutableBufferPointer<Element>) throws(Failure) -> Void) throws(Failure) {
        var failure: Failure?
        self.init(unsafeUninitializedCapacity: count) { buffer, initialised in
            do throws(Failure) {
                try fill(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
                initialised = count
            } catch {
                failure = error
                initialised = 0
            }
        }
        if let failure { throw failure }
    }
}

/// The packed weights of a program, gathered into one array at 64-byte
/// aligned offsets before they move into the program's allocation.
struct WeightArena {
    /// Whether the convolutions it packs use the portable kernel.
    let portable: Bool
    private(set) var floats: [Float] = []

    init(portable: Bool) { self.portable = portable }

    /// Appends `values` at the next 64-byte boundary and returns their offset.
    mutating func append(_ values: [Float]) -> Int {
        while floats.count % 16 != 0 { floats.append(0) }
        let offset = floats.count
        floats += values
        return offset
    }
}

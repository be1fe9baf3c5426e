import Catalogue
import Imaging
import Inference
import Testing
import Training
@testable import Wardrobe

/// Every module that needs the contract takes it from `ModelContract`; the
/// catalogue, which knows no models, keeps a count that must agree with it.
@Suite struct ContractTests {
    @Test func everyModuleAgreesWithTheContract() {
        #expect(ModelContract.labels.count == 10)
        #expect(ClothingClassifier.labels == ModelContract.labels)
        #expect(FashionMNIST.labels == ModelContract.labels)
        #expect(Catalogue.labelCount == ModelContract.labels.count)
        #expect(PreparedTensor.side == ModelContract.side)
        #expect(PreparedTensor.count == ModelContract.valuesPerImage)
        #expect(ClothingClassifier.pixelsPerImage == ModelContract.valuesPerImage)
        let input = Architecture.clothing().input
        #expect([-1, input.channels, input.height, input.width] == ModelContract.standard.input.shape)
        #expect([-1, Architecture.clothing().outputCount] == ModelContract.standard.output.shape)
    }
}

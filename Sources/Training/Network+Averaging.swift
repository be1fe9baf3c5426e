/// Weight averaging: one network whose every parameter and running statistic
/// is the mean of several networks'. Meaningful for networks fine-tuned from
/// one parent with a small rate (they stay in one basin of the loss, where
/// the average of good weights is good weights, often better than each:
/// what is called a model soup); networks trained apart from random starts
/// share no such basin and their average is noise.
extension Network {
    public init(averaging networks: [Network]) {
        precondition(!networks.isEmpty, "nothing to average")
        let first = networks[0]
        precondition(networks.allSatisfy { $0.architecture == first.architecture }, "networks of one architecture only")
        self = first
        let share = 1 / Float(networks.count)
        for i in parameters.indices { parameters[i] = networks.reduce(0) { $0 + $1.parameters[i] } * share }
        for i in statistics.indices { statistics[i] = networks.reduce(0) { $0 + $1.statistics[i] } * share }
    }
}

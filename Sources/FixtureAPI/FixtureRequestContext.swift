import Hummingbird

/// The request context of the fixture server: Hummingbird's core storage plus a way to drop the connection.
struct FixtureRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Closes the request's connection without answering (the dropped-connection fault).
    let dropConnection: @Sendable () async -> Void

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        let channel = source.channel
        dropConnection = { try? await channel.close() }
    }
}

#include "agent/playground/variantfork.h"

#include "agent/replay/transcriptfork.h"

namespace Loopscope {

std::optional<Transcript> VariantFork::fork(const Transcript &source, const ModelCallVariant &variant,
                                            QString *error, const QDateTime &now)
{
    const auto fail = [error](const QString &message) -> std::optional<Transcript> {
        *error = message;
        return std::nullopt;
    };
    if (!variant.succeeded())
        return fail(tr("This re-run failed (%1): there is no response to fork with.").arg(variant.error));
    if (!variant.response.toolCalls.isEmpty())
        return fail(tr("This response calls %n tool(s), which would have no results: fork from a response "
                       "that answers in text, or edit the request so that it does.",
                       nullptr, int(variant.response.toolCalls.size())));

    QList<Message> history = variant.request.messages;
    QString systemPrompt = source.config.systemPrompt;
    if (!history.isEmpty() && history.constFirst().role == Message::Role::System)
        systemPrompt = history.takeFirst().text;

    // The trace turns worth keeping are those of the history the source and the request share.
    qsizetype shared = 0;
    while (shared < history.size() && shared < source.messages.size()
           && history.at(shared) == source.messages.at(shared))
        ++shared;
    QString reason;
    std::optional<Transcript> forked;
    // A cut that would split calls from their results keeps no turns, but still forks.
    for (qsizetype count = shared; count >= 0 && !forked; --count)
        forked = TranscriptFork::fork(source, int(count), &reason, now);
    if (!forked)
        return fail(tr("Cannot fork here: %1").arg(reason));

    history.append(Message::assistant(variant.response.text));
    forked->messages = history;
    forked->config.systemPrompt = systemPrompt;
    forked->config.model = variant.request.options;
    forked->providerKind = variant.providerKind;
    forked->baseUrl = QUrl(variant.baseUrl);
    return forked;
}

} // namespace Loopscope

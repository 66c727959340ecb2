#pragma once

#include <QString>

#include <optional>

namespace Loopscope {

struct TraceForest;
struct Transcript;

/*! Where a saved session says a text: the message to show and the words around the match. */
struct TranscriptMatch
{
    QString snippet;       // the text around the match, on one line
    int messageIndex = -1; // in Transcript::messages: the one the chat scrolls to
    bool operator==(const TranscriptMatch &) const = default;
};

/*!
    Finds a text in what a saved session's agents said, whatever the case. The
    conversation comes first; then what its sub-agents said and found, which
    lives only in the trace (a sub-agent's task, its tools' results and its
    answers), shown as the message of the call that asked it; then the agents
    that took part, by name.
*/
class TranscriptSearch final
{
public:
    // \a trace: the transcript's trace as read (nullptr: the messages only).
    static std::optional<TranscriptMatch> find(const Transcript &transcript, const TraceForest *trace,
                                               const QString &text);
    // The text around [start, start + length) on one line, with an ellipsis where it was cut.
    static QString snippetAround(const QString &text, qsizetype start, qsizetype length);
};

} // namespace Loopscope

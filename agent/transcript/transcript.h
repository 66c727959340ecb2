#pragma once

#include "agent/conversation/message.h"
#include "agent/loop/agentconfig.h"
#include "agent/trace/trace.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>
#include <QUrl>

#include <memory>
#include <optional>

namespace Loopscope {

/*!
    A saved session (`*.loopscope.json`): the conversation, its full trace,
    the agent configuration it ran with and a little metadata. A value type;
    TranscriptFile reads and writes it. It never holds a secret: the provider
    is named by kind, base URL (without credentials) and model only.
*/
struct Transcript
{
    static constexpr int formatVersion = 4;

    QString title;
    QDateTime created; // UTC
    QDateTime updated; // UTC

    QString providerKind; // "openai", "anthropic", "gemini", "ollama"; empty if none was set
    QUrl baseUrl;
    AgentConfig config; // config.model holds the model name and its parameters
    QStringList tools;  // the built-in tools that were enabled
    // The knowledge bases the session attaches, by name.
    QStringList knowledge;
    // The agent chosen for the session (the window's agent chooser), empty: the default agent; and the
    // session's own system prompt, nullopt when it has none. Both come back on reopening.
    QString agentName;
    std::optional<QString> sessionPrompt;

    QList<Message> messages;
    QJsonArray trace; // Trace::toJson()

    int turnCount() const; // user messages
    bool operator==(const Transcript &) const = default;
};

/*! What loading a file gave: a transcript, or why not. */
struct TranscriptLoadResult
{
    std::optional<Transcript> transcript;
    // transcript->trace, read and checked while loading, for ChatSession::restore()
    // to take instead of reading it again (on the GUI thread).
    std::shared_ptr<TraceForest> trace;
    QString error;        // a sentence naming the problem, empty on success
    int upgradedFrom = 0; // the older formatVersion the file had, 0 if current
};

/*!
    Reads and writes transcripts (the format is docs/transcript-format.md).
    Loading never trusts the file: any size, encoding, nesting, type or value
    problem becomes a sentence naming what and where, never a crash. Older
    formats are upgraded on load; newer ones are refused. Writing is atomic
    (QSaveFile) and byte-stable for equal transcripts.
*/
class TranscriptFile final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::TranscriptFile)

public:
    static constexpr qint64 maxFileBytes = 512LL * 1024 * 1024;
    // Beyond what any session needs; they bound the memory a hostile file can claim.
    static constexpr int maxJsonDepth = 512;
    static constexpr qint64 maxJsonValues = 16'000'000;

    // What load() gives the trace as. Opening a session needs only the forest: then
    // transcript->trace stays empty, and a file Loopscope wrote is read in one fast
    // parse (any other goes the checked way, with the same result and messages).
    enum class TraceForm { JsonAndForest, ForestOnly };

    static QByteArray serialize(const Transcript &transcript);
    static TranscriptLoadResult parse(const QByteArray &bytes, TraceForm form = TraceForm::JsonAndForest);
    static TranscriptLoadResult load(const QString &path, TraceForm form = TraceForm::JsonAndForest);
    static bool save(const Transcript &transcript, const QString &path, QString *error = nullptr);

    // The checks load() and parse() start with, for other readers of untrusted
    // JSON files (imports): a regular, readable file of at most maxFileBytes;
    // UTF-8 JSON without zero bytes, duplicate keys, or more than maxJsonDepth
    // levels or maxJsonValues values. \a rootName is what errors call the
    // top-level value, e.g. "messages" for an array of them.
    static std::optional<QByteArray> readFile(const QString &path, QString *error);
    static std::optional<QJsonDocument> parseJson(const QByteArray &bytes, QString *error,
                                                  const QString &rootName = {});
};

} // namespace Loopscope

#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QCoreApplication>
#include <QList>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    One Server-Sent Event as the WHATWG "dispatch the event" step produces it.

    \c id is the stream's last event ID at dispatch time: per the spec it carries over to later events
    until an \c id: field changes it. \c retryMs is set only when a valid \c retry: field appeared in
    this event's own block.
*/
struct SseEvent
{
    QString type = QStringLiteral("message");
    QString data;
    QString id;
    std::optional<int> retryMs;

    bool operator==(const SseEvent &) const = default;
};

/*!
    Incremental Server-Sent Events parser shared by every streaming provider adapter.

    Network chunks split a stream anywhere: inside a CR LF pair, inside a UTF-8 character, inside the
    leading BOM. SDKs that split per chunk or decode per chunk lose or corrupt data in exactly those
    places, so this parser splits on bytes, decodes only complete lines, and follows the WHATWG
    event-stream rules to the letter. It never rescans bytes it has already seen, so a stream fed one
    byte at a time costs the same as one fed in a single call, and a size limit stops a server that
    never ends a line from eating memory.
*/
class SseParser final
{
    Q_DECLARE_TR_FUNCTIONS(SseParser)

public:
    static constexpr qsizetype DefaultMaxEventBytes = 16 * 1024 * 1024;

    //! \a maxEventBytes bounds both a single line and the data of a single event.
    explicit SseParser(qsizetype maxEventBytes = DefaultMaxEventBytes);

    //! Feeds the next bytes of the stream, split anywhere. Ignored after an error or finish().
    void feed(QByteArrayView bytes);
    //! Returns the events completed since the last call, oldest first.
    [[nodiscard]] QList<SseEvent> takeEvents();
    //! Marks the end of the stream; an unterminated final event is discarded as the spec says.
    void finish();

    //! Before finish(): whether bytes of an undispatched event are buffered. After finish(): whether
    //! finish() had to discard such bytes, i.e. the stream was cut rather than ended cleanly.
    [[nodiscard]] bool hasPendingData() const;
    //! The last valid \c retry: value seen, whether or not its block dispatched an event.
    [[nodiscard]] std::optional<int> retryMs() const { return m_lastRetryMs; }

    [[nodiscard]] bool hasError() const { return !m_errorString.isEmpty(); }
    [[nodiscard]] QString errorString() const { return m_errorString; }

private:
    void feedLines(QByteArrayView bytes);
    void processLine(QByteArrayView line);
    void processField(QByteArrayView name, QByteArrayView value);
    void dispatchEvent();
    void resetLineBuffer();
    void failTooLarge();

    const qsizetype m_maxEventBytes;

    // The unterminated tail of the stream. It never contains CR or LF, so it is never rescanned.
    QByteArray m_lineBuffer;
    // Bytes of "data" lines, each followed by LF, decoded only when the event is dispatched.
    QByteArray m_dataBuffer;
    QString m_eventType;
    QString m_lastEventId;
    std::optional<int> m_eventRetryMs;
    std::optional<int> m_lastRetryMs;
    QList<SseEvent> m_events;
    QString m_errorString;

    bool m_bomChecked = false;
    // The previous feed ended in CR: an LF starting the next feed belongs to the same line ending.
    bool m_skipLeadingLf = false;
    // A field line arrived since the last blank line.
    bool m_eventInProgress = false;
    bool m_finished = false;
    bool m_discardedAtFinish = false;
};

} // namespace Loopscope

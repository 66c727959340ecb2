#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace Loopscope {

/*!
    Incremental newline-delimited JSON parser for streams such as Ollama's native /api/chat.

    Network chunks end anywhere, including inside a JSON value or a UTF-8 character, so objects are
    parsed only once their whole line has arrived. A line that is not a JSON object is a protocol
    error: the parser reports it with its line number and stops, rather than guessing at the rest.
    Like SseParser it never rescans bytes, and a size limit stops a line that never ends.
*/
class NdjsonParser final
{
    Q_DECLARE_TR_FUNCTIONS(NdjsonParser)

public:
    static constexpr qsizetype DefaultMaxLineBytes = 16 * 1024 * 1024;

    explicit NdjsonParser(qsizetype maxLineBytes = DefaultMaxLineBytes);

    //! Feeds the next bytes of the stream, split anywhere. Ignored after an error or finish().
    void feed(QByteArrayView bytes);
    //! Returns the objects completed since the last call, oldest first.
    [[nodiscard]] QList<QJsonObject> takeObjects();
    //! Marks the end of the stream. A final line without its newline is still accepted when it is a
    //! complete JSON value (many servers omit the last newline); if it does not parse, the stream
    //! was cut, and the line is discarded and reported through hasPendingData(), not as an error.
    void finish();

    //! Before finish(): whether part of a line is buffered. After finish(): whether finish() had to
    //! discard a cut final line.
    [[nodiscard]] bool hasPendingData() const;

    [[nodiscard]] bool hasError() const { return !m_errorString.isEmpty(); }
    [[nodiscard]] QString errorString() const { return m_errorString; }

private:
    //! \a terminated is false only for a final line without newline, which may have been cut.
    void processLine(QByteArrayView line, bool terminated);

    const qsizetype m_maxLineBytes;
    // The unterminated tail of the stream. It never contains LF, so it is never rescanned.
    QByteArray m_lineBuffer;
    QList<QJsonObject> m_objects;
    QString m_errorString;
    // 1-based number of the line being read, counting blank lines, for error messages.
    qsizetype m_lineNumber = 1;
    bool m_finished = false;
    bool m_discardedAtFinish = false;
};

} // namespace Loopscope

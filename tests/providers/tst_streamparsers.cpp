#include "agent/providers/ndjsonparser.h"
#include "agent/wire/sseparser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <limits>
#include <optional>

using namespace Loopscope;
using namespace Qt::StringLiterals;

// Test data here is written with escaped ordinary strings only: moc misreads raw strings holding an
// unbalanced quote, and JSON fragments are full of them.

Q_DECLARE_METATYPE(Loopscope::SseEvent)

namespace {

QString escaped(const QString &text)
{
    QString result;
    for (const QChar c : text) {
        if (c == u'\n')
            result += u"\\n"_s;
        else if (c == u'\r')
            result += u"\\r"_s;
        else if (c == u'\\')
            result += u"\\\\"_s;
        else if (c.unicode() < 0x20 || c.unicode() > 0x7e)
            result += u"\\u%1"_s.arg(uint(c.unicode()), 4, 16, QChar(u'0'));
        else
            result += c;
    }
    return result;
}

QString describe(const SseEvent &event)
{
    QString text = u"{type=%1 data=\"%2\" id=\"%3\""_s.arg(escaped(event.type), escaped(event.data),
                                                           escaped(event.id));
    if (event.retryMs)
        text += u" retry=%1"_s.arg(*event.retryMs);
    return text + u'}';
}

QString describe(const QList<SseEvent> &events)
{
    QStringList parts;
    for (const SseEvent &event : events)
        parts.append(describe(event));
    return u'[' + parts.join(u", "_s) + u']';
}

QString describe(const QList<QJsonObject> &objects)
{
    QStringList parts;
    for (const QJsonObject &object : objects)
        parts.append(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)));
    return u'[' + parts.join(u", "_s) + u']';
}

SseEvent message(const QString &data, const QString &id = {}, std::optional<int> retryMs = {})
{
    return {u"message"_s, data, id, retryMs};
}

SseEvent typed(const QString &type, const QString &data)
{
    return {type, data, {}, {}};
}

// One way of cutting a stream into feeds.
struct Split
{
    QString name;
    QList<qsizetype> cuts;
    bool emptyFeedsBetween = false;
};

// Whole, cut once at every byte position, one byte at a time (also with empty feeds in between),
// and for short streams cut twice at every pair of positions.
QList<Split> splitsOf(qsizetype size)
{
    QList<Split> splits{{u"in one piece"_s, {}}};
    QList<qsizetype> everyByte;
    for (qsizetype cut = 1; cut < size; ++cut) {
        splits.append({u"split at byte %1"_s.arg(cut), {cut}});
        everyByte.append(cut);
    }
    splits.append({u"one byte at a time"_s, everyByte});
    splits.append({u"one byte at a time with empty feeds between"_s, everyByte, true});
    if (size <= 64) {
        for (qsizetype first = 1; first < size; ++first) {
            for (qsizetype second = first + 1; second < size; ++second)
                splits.append({u"split at bytes %1 and %2"_s.arg(first).arg(second), {first, second}});
        }
    }
    return splits;
}

// Each piece is its own copy, so a parser that kept a view into an old feed would read freed memory
// (which the sanitizer build catches) instead of silently reading the test's stream.
QList<QByteArray> piecesOf(const QByteArray &stream, const Split &split)
{
    QList<QByteArray> pieces;
    qsizetype from = 0;
    for (const qsizetype cut : split.cuts) {
        pieces.append(stream.mid(from, cut - from));
        if (split.emptyFeedsBetween)
            pieces.append(QByteArray());
        from = cut;
    }
    pieces.append(stream.mid(from));
    return pieces;
}

struct SseOutcome
{
    QList<SseEvent> events;
    bool pendingBeforeFinish = false;
    bool pendingAfterFinish = false;
    bool error = false;

    bool operator==(const SseOutcome &) const = default;
};

QString yesNo(bool value)
{
    return value ? u"yes"_s : u"no"_s;
}

QString describe(const SseOutcome &outcome)
{
    return u"events %1, pending before finish %2, after finish %3, error %4"_s.arg(
        describe(outcome.events), yesNo(outcome.pendingBeforeFinish), yesNo(outcome.pendingAfterFinish),
        yesNo(outcome.error));
}

SseOutcome parseSse(const QByteArray &stream, const Split &split,
                    qsizetype maxEventBytes = SseParser::DefaultMaxEventBytes)
{
    SseParser parser(maxEventBytes);
    SseOutcome outcome;
    for (const QByteArray &piece : piecesOf(stream, split)) {
        parser.feed(piece);
        outcome.events += parser.takeEvents();
    }
    outcome.pendingBeforeFinish = parser.hasPendingData();
    parser.finish();
    outcome.events += parser.takeEvents();
    outcome.pendingAfterFinish = parser.hasPendingData();
    outcome.error = parser.hasError();
    return outcome;
}

QString mismatch(const Split &split, const QString &actual, const QString &expected)
{
    return u"Fed %1:\n   Actual:   %2\n   Expected: %3"_s.arg(split.name, actual, expected);
}

struct NdjsonOutcome
{
    QList<QJsonObject> objects;
    bool pendingBeforeFinish = false;
    bool pendingAfterFinish = false;
    QString error;

    bool operator==(const NdjsonOutcome &) const = default;
};

QString describe(const NdjsonOutcome &outcome)
{
    return u"objects %1, pending before finish %2, after finish %3, error \"%4\""_s.arg(
        describe(outcome.objects), yesNo(outcome.pendingBeforeFinish), yesNo(outcome.pendingAfterFinish),
        outcome.error);
}

NdjsonOutcome parseNdjson(const QByteArray &stream, const Split &split,
                          qsizetype maxLineBytes = NdjsonParser::DefaultMaxLineBytes)
{
    NdjsonParser parser(maxLineBytes);
    NdjsonOutcome outcome;
    for (const QByteArray &piece : piecesOf(stream, split)) {
        parser.feed(piece);
        outcome.objects += parser.takeObjects();
    }
    outcome.pendingBeforeFinish = parser.hasPendingData();
    parser.finish();
    outcome.objects += parser.takeObjects();
    outcome.pendingAfterFinish = parser.hasPendingData();
    outcome.error = parser.errorString();
    return outcome;
}

QJsonObject jsonObject(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

QString parseErrorText(const QByteArray &json)
{
    QJsonParseError error;
    QJsonDocument::fromJson(json, &error);
    return error.errorString();
}

} // namespace

namespace Loopscope {
// Lets QCOMPARE print events readably.
char *toString(const SseEvent &event)
{
    return qstrdup(describe(event).toUtf8().constData());
}
} // namespace Loopscope

class StreamParsersTest final : public QObject
{
    Q_OBJECT

private slots:
    // SSE: the WHATWG rules, each stream checked under every way of splitting it.
    void sseStreamYieldsTheSameEventsHoweverItIsSplit_data();
    void sseStreamYieldsTheSameEventsHoweverItIsSplit();
    void crLfPairSplitAcrossFeedsIsOneLineEnding_data();
    void crLfPairSplitAcrossFeedsIsOneLineEnding();
    void multiByteCharacterSplitAcrossFeedsStaysIntact_data();
    void multiByteCharacterSplitAcrossFeedsStaysIntact();
    void bomSplitAcrossFeedsIsStripped_data();
    void bomSplitAcrossFeedsIsStripped();
    void eventIsAvailableAsSoonAsItsBlankLineArrives();
    void unterminatedFinalEventIsDiscardedButReportedAsPending();
    void cleanEndLeavesNothingPending();
    void feedAfterFinishIsIgnored();
    void retryWithoutDataIsStillReportedByTheParser();
    void oversizedLineOrEventStopsTheParserWithAnError_data();
    void oversizedLineOrEventStopsTheParserWithAnError();
    void defaultSizeLimitIsSixteenMebibytes();
    void longLineFedOneByteAtATimeLosesNoEvent();

    // SSE: streams as real providers send them.
    void openAiStreamYieldsToolCallFragmentsAndDoneHoweverItIsSplit();
    void anthropicStreamYieldsTypedEventsIncludingPingHoweverItIsSplit();
    void geminiCrLfFramedStreamYieldsEveryChunkHoweverItIsSplit();

    // NDJSON.
    void ndjsonStreamYieldsTheSameObjectsHoweverItIsSplit_data();
    void ndjsonStreamYieldsTheSameObjectsHoweverItIsSplit();
    void ndjsonLineThatIsNotAnObjectStopsParsingWithItsLineNumber_data();
    void ndjsonLineThatIsNotAnObjectStopsParsingWithItsLineNumber();
    void ndjsonCutFinalLineIsReportedAsPendingNotAsAnError();
    void ndjsonOversizedLineStopsTheParserWithAnError();
    void ndjsonLongLineFedOneByteAtATimeLosesNoObject();
};

void StreamParsersTest::sseStreamYieldsTheSameEventsHoweverItIsSplit_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QList<SseEvent>>("expected");
    QTest::addColumn<bool>("pending");

    const int intMax = std::numeric_limits<int>::max();

    // Line endings.
    QTest::newRow("LF line endings") << "data: hello\n\n"_ba << QList{message(u"hello"_s)} << false;
    QTest::newRow("CRLF line endings") << "data: hello\r\n\r\n"_ba << QList{message(u"hello"_s)} << false;
    QTest::newRow("CR line endings") << "data: hello\r\r"_ba << QList{message(u"hello"_s)} << false;
    QTest::newRow("LF then CRLF delimits events")
        << "data: a\n\r\ndata: b\n\r\n"_ba << QList{message(u"a"_s), message(u"b"_s)} << false;
    QTest::newRow("LF then CR is two line endings")
        << "data: a\n\rdata: b\n\n"_ba << QList{message(u"a"_s), message(u"b"_s)} << false;
    QTest::newRow("CRLF then CR delimits events")
        << "data: a\r\n\rdata: b\r\n\r\n"_ba << QList{message(u"a"_s), message(u"b"_s)} << false;
    QTest::newRow("all three endings in one event")
        << "data: a\rdata: b\r\ndata: c\n\n"_ba << QList{message(u"a\nb\nc"_s)} << false;

    // Comments and field syntax.
    QTest::newRow("comment lines are ignored")
        << ": keep-alive\ndata: a\n: between lines\ndata: b\n\n:\n\n"_ba << QList{message(u"a\nb"_s)}
        << false;
    QTest::newRow("value right after the colon") << "data:x\n\n"_ba << QList{message(u"x"_s)} << false;
    QTest::newRow("one space after the colon is stripped")
        << "data: x\n\n"_ba << QList{message(u"x"_s)} << false;
    QTest::newRow("only the first of two spaces is stripped")
        << "data:  x\n\n"_ba << QList{message(u" x"_s)} << false;
    QTest::newRow("a tab after the colon is kept") << "data:\tx\n\n"_ba << QList{message(u"\tx"_s)} << false;
    QTest::newRow("trailing spaces are kept") << "data: x  \n\n"_ba << QList{message(u"x  "_s)} << false;
    QTest::newRow("later colons belong to the value")
        << "data: a:b: c\n\n"_ba << QList{message(u"a:b: c"_s)} << false;
    QTest::newRow("a space before the colon is part of the field name")
        << "data : x\n\n"_ba << QList<SseEvent>{} << false;
    QTest::newRow("field names are case sensitive")
        << "Data: x\nDATA: y\n\n"_ba << QList<SseEvent>{} << false;
    QTest::newRow("unknown fields are ignored")
        << "foo: bar\ndata: a\nbaz\n\n"_ba << QList{message(u"a"_s)} << false;

    // Data.
    QTest::newRow("data lines join with LF") << "data: one\ndata: two\ndata:\ndata: three\n\n"_ba
                                             << QList{message(u"one\ntwo\n\nthree"_s)} << false;
    QTest::newRow("a data line without colon is empty data")
        << "data\n\n"_ba << QList{message(QString())} << false;
    QTest::newRow("empty data value still dispatches")
        << "data:\n\n"_ba << QList{message(QString())} << false;
    QTest::newRow("two empty data lines give one LF")
        << "data\ndata\n\n"_ba << QList{message(u"\n"_s)} << false;
    QTest::newRow("blank lines without data dispatch nothing")
        << "\n\n\r\n\revent: ping\n\nid: 3\n\n"_ba << QList<SseEvent>{} << false;
    QTest::newRow("empty stream") << QByteArray() << QList<SseEvent>{} << false;

    // Event type.
    QTest::newRow("event field names the type")
        << "event: delta\ndata: x\n\n"_ba << QList{typed(u"delta"_s, u"x"_s)} << false;
    QTest::newRow("event type resets after dispatch")
        << "event: delta\ndata: x\n\ndata: y\n\n"_ba << QList{typed(u"delta"_s, u"x"_s), message(u"y"_s)}
        << false;
    QTest::newRow("event type of an event without data does not leak")
        << "event: ping\n\ndata: x\n\n"_ba << QList{message(u"x"_s)} << false;
    QTest::newRow("empty event field means message")
        << "event:\ndata: x\n\n"_ba << QList{message(u"x"_s)} << false;
    QTest::newRow("last event field wins")
        << "event: a\nevent: b\ndata: x\n\n"_ba << QList{typed(u"b"_s, u"x"_s)} << false;

    // Id.
    QTest::newRow("id carries over to later events")
        << "id: 7\ndata: a\n\ndata: b\n\n"_ba << QList{message(u"a"_s, u"7"_s), message(u"b"_s, u"7"_s)}
        << false;
    QTest::newRow("an empty id field clears the id")
        << "id: 7\ndata: a\n\nid\ndata: b\n\n"_ba << QList{message(u"a"_s, u"7"_s), message(u"b"_s)} << false;
    QTest::newRow("an id containing NUL is ignored")
        << "id: 1\ndata: a\n\nid: 2\0003\ndata: b\n\n"_ba
        << QList{message(u"a"_s, u"1"_s), message(u"b"_s, u"1"_s)} << false;
    QTest::newRow("an id in a block without data still applies")
        << "id: 5\n\ndata: a\n\n"_ba << QList{message(u"a"_s, u"5"_s)} << false;

    // Retry.
    QTest::newRow("retry of ASCII digits is reported with its event")
        << "retry: 3000\ndata: a\n\n"_ba << QList{message(u"a"_s, {}, 3000)} << false;
    QTest::newRow("retry with anything but digits is ignored")
        << "retry: 3s\ndata: a\n\nretry: -1\ndata: b\n\nretry: 1 0\ndata: c\n\nretry:  5\ndata: d\n\n"_ba
        << QList{message(u"a"_s), message(u"b"_s), message(u"c"_s), message(u"d"_s)} << false;
    QTest::newRow("empty retry is ignored") << "retry:\ndata: a\n\n"_ba << QList{message(u"a"_s)} << false;
    QTest::newRow("retry belongs only to its own event")
        << "retry: 10\ndata: a\n\ndata: b\n\n"_ba << QList{message(u"a"_s, {}, 10), message(u"b"_s)} << false;
    QTest::newRow("retry beyond int range saturates")
        << "retry: 99999999999\ndata: a\n\n"_ba << QList{message(u"a"_s, {}, intMax)} << false;

    // BOM and encoding.
    QTest::newRow("leading BOM is stripped") << "\xEF\xBB\xBF"
                                                "data: a\n\n"_ba
                                             << QList{message(u"a"_s)} << false;
    QTest::newRow("only the first BOM is stripped") << "\xEF\xBB\xBF\xEF\xBB\xBF"
                                                       "data: a\n\ndata: b\n\n"_ba
                                                    << QList{message(u"b"_s)} << false;
    QTest::newRow("a BOM at the start of a later line is part of the field name")
        << "data: a\n\n\xEF\xBB\xBF"
           "data: b\n\n"_ba
        << QList{message(u"a"_s)} << false;
    QTest::newRow("a BOM at the start of a value is kept")
        << "event: \xEF\xBB\xBF"
           "x\ndata: \xEF\xBB\xBF\ndata: \xEF\xBB\xBF"
           "y\n\n"_ba
        << QList{typed(u"\uFEFFx"_s, u"\uFEFF\n\uFEFFy"_s)} << false;
    QTest::newRow("a BOM inside data is kept") << "data: \xEF\xBB\xBF"
                                                  "x\n\n"_ba
                                               << QList{message(u"\uFEFFx"_s)} << false;
    QTest::newRow("a BOM-like start that is not a BOM is ordinary bytes")
        << "\xEF\xBB\n\ndata: b\n\n"_ba << QList{message(u"b"_s)} << false;
    QTest::newRow("a stream starting with CRLF")
        << "\r\ndata: a\r\n\r\n"_ba << QList{message(u"a"_s)} << false;
    QTest::newRow("multi-byte characters")
        << "data: h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80 \xE6\x97\xA5\xE6\x9C\xAC\n\n"_ba
        << QList{message(u"h\u00e9llo \u20ac \U0001F600 \u65e5\u672c"_s)} << false;
    QTest::newRow("U+2028, U+2029 and NEL inside data do not break lines")
        << "data: {\"t\":\"a\xE2\x80\xA8"
           "b\xE2\x80\xA9"
           "c\xC2\x85"
           "d\"}\n\n"_ba
        << QList{message(u"{\"t\":\"a\u2028b\u2029c\u0085d\"}"_s)} << false;
    QTest::newRow("invalid UTF-8 is replaced, not dropped") << "data: a\xFF"
                                                               "b\n\n"_ba
                                                            << QList{message(u"a\uFFFDb"_s)} << false;

    // End of stream.
    QTest::newRow("an unterminated final event is discarded")
        << "data: a\n\ndata: b\n"_ba << QList{message(u"a"_s)} << true;
    QTest::newRow("an unterminated final line is discarded")
        << "data: a\n\ndata: b"_ba << QList{message(u"a"_s)} << true;
    QTest::newRow("a final event field without blank line is pending")
        << "data: a\n\nevent: b\n"_ba << QList{message(u"a"_s)} << true;
    QTest::newRow("a trailing comment line is not pending")
        << "data: a\n\n: bye\n"_ba << QList{message(u"a"_s)} << false;
}

void StreamParsersTest::sseStreamYieldsTheSameEventsHoweverItIsSplit()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<SseEvent>, expected);
    QFETCH(bool, pending);

    const SseOutcome reference{expected, pending, pending, false};
    for (const Split &split : splitsOf(stream.size())) {
        const SseOutcome outcome = parseSse(stream, split);
        QVERIFY2(outcome == reference, qPrintable(mismatch(split, describe(outcome), describe(reference))));
    }
}

void StreamParsersTest::crLfPairSplitAcrossFeedsIsOneLineEnding_data()
{
    QTest::addColumn<QByteArrayList>("pieces");
    QTest::addColumn<QList<SseEvent>>("expected");

    // Were CR|LF two endings, the LF would be a blank line and dispatch "a" on its own.
    QTest::newRow("CR ends one feed, LF starts the next")
        << QByteArrayList{"data: a\r"_ba, "\ndata: b\r"_ba, "\n\r"_ba, "\n"_ba} << QList{message(u"a\nb"_s)};
    QTest::newRow("an empty feed between CR and LF")
        << QByteArrayList{"data: a\r"_ba, QByteArray(), "\ndata: b\r\n\r\n"_ba} << QList{message(u"a\nb"_s)};
    QTest::newRow("CR at the end of a feed, then CR is a blank line")
        << QByteArrayList{"data: a\r"_ba, "\r"_ba} << QList{message(u"a"_s)};
    QTest::newRow("LF, then CR and LF in separate feeds")
        << QByteArrayList{"data: a\n"_ba, "\r"_ba, "\n"_ba, "data: b\n\n"_ba}
        << QList{message(u"a"_s), message(u"b"_s)};
    QTest::newRow("only the LF right after the CR is skipped")
        << QByteArrayList{"data: a\r"_ba, "\n"_ba, "\n"_ba} << QList{message(u"a"_s)};
}

void StreamParsersTest::crLfPairSplitAcrossFeedsIsOneLineEnding()
{
    QFETCH(QByteArrayList, pieces);
    QFETCH(QList<SseEvent>, expected);

    SseParser parser;
    QList<SseEvent> events;
    for (const QByteArray &piece : std::as_const(pieces)) {
        parser.feed(piece);
        events += parser.takeEvents();
    }
    QCOMPARE(describe(events), describe(expected));
    QVERIFY(!parser.hasPendingData());
}

void StreamParsersTest::multiByteCharacterSplitAcrossFeedsStaysIntact_data()
{
    QTest::addColumn<QByteArray>("first");
    QTest::addColumn<QByteArray>("second");
    QTest::addColumn<QString>("expected");

    const QString emoji = u"<\U0001F600>"_s;
    QTest::newRow("a 4-byte emoji split after its first byte") << "data: <\xF0"_ba
                                                               << "\x9F\x98\x80>\n\n"_ba << emoji;
    QTest::newRow("a 4-byte emoji split after its second byte") << "data: <\xF0\x9F"_ba
                                                                << "\x98\x80>\n\n"_ba << emoji;
    QTest::newRow("a 4-byte emoji split after its third byte") << "data: <\xF0\x9F\x98"_ba
                                                               << "\x80>\n\n"_ba << emoji;
    QTest::newRow("a 3-byte euro sign split after its first byte") << "data: <\xE2"_ba
                                                                   << "\x82\xAC>\n\n"_ba << u"<\u20ac>"_s;
    QTest::newRow("a 3-byte euro sign split after its second byte") << "data: <\xE2\x82"_ba
                                                                    << "\xAC>\n\n"_ba << u"<\u20ac>"_s;
    QTest::newRow("a 2-byte e-acute split in the middle") << "data: <\xC3"_ba
                                                          << "\xA9>\n\n"_ba << u"<\u00e9>"_s;
    QTest::newRow("a line separator U+2028 split after its first byte")
        << "data: <\xE2"_ba
        << "\x80\xA8>\n\n"_ba << u"<\u2028>"_s;
}

void StreamParsersTest::multiByteCharacterSplitAcrossFeedsStaysIntact()
{
    QFETCH(QByteArray, first);
    QFETCH(QByteArray, second);
    QFETCH(QString, expected);

    SseParser parser;
    parser.feed(first);
    QVERIFY(parser.takeEvents().isEmpty());
    parser.feed(second);
    QCOMPARE(parser.takeEvents(), QList{message(expected)});
}

void StreamParsersTest::bomSplitAcrossFeedsIsStripped_data()
{
    QTest::addColumn<QByteArrayList>("pieces");

    QTest::newRow("BOM split after its first byte") << QByteArrayList{"\xEF"_ba, "\xBB\xBF"
                                                                                 "data: a\n\n"_ba};
    QTest::newRow("BOM split after its second byte") << QByteArrayList{"\xEF\xBB"_ba, "\xBF"
                                                                                      "data: a\n\n"_ba};
    QTest::newRow("BOM fed one byte at a time")
        << QByteArrayList{"\xEF"_ba, "\xBB"_ba, "\xBF"_ba, "d"_ba, "ata: a\n\n"_ba};
    QTest::newRow("BOM alone in the first feed") << QByteArrayList{"\xEF\xBB\xBF"_ba, "data: a\n\n"_ba};
    QTest::newRow("empty feeds around a split BOM")
        << QByteArrayList{QByteArray(), "\xEF"_ba, QByteArray(), "\xBB\xBF"_ba, "data: a\n\n"_ba};
}

void StreamParsersTest::bomSplitAcrossFeedsIsStripped()
{
    QFETCH(QByteArrayList, pieces);

    SseParser parser;
    QList<SseEvent> events;
    for (const QByteArray &piece : std::as_const(pieces)) {
        parser.feed(piece);
        events += parser.takeEvents();
    }
    QCOMPARE(events, QList{message(u"a"_s)});
}

void StreamParsersTest::eventIsAvailableAsSoonAsItsBlankLineArrives()
{
    SseParser parser;
    parser.feed("data: a\n"_ba);
    QVERIFY(parser.takeEvents().isEmpty());
    QVERIFY(parser.hasPendingData());

    parser.feed("\n"_ba);
    QCOMPARE(parser.takeEvents(), QList{message(u"a"_s)});
    QVERIFY(parser.takeEvents().isEmpty()); // taken events are gone
    QVERIFY(!parser.hasPendingData());

    // A CR ends its line at once: the parser does not wait to see whether an LF follows.
    parser.feed("data: b\r\r"_ba);
    QCOMPARE(parser.takeEvents(), QList{message(u"b"_s)});
    QVERIFY(!parser.hasPendingData());
}

void StreamParsersTest::unterminatedFinalEventIsDiscardedButReportedAsPending()
{
    SseParser parser;
    parser.feed("data: complete\n\ndata: cut off mid-ev"_ba);
    QVERIFY(parser.hasPendingData());
    parser.finish();
    QCOMPARE(parser.takeEvents(), QList{message(u"complete"_s)});
    QVERIFY(parser.hasPendingData()); // after finish(): "finish() discarded something"
    QVERIFY(!parser.hasError());
}

void StreamParsersTest::cleanEndLeavesNothingPending()
{
    SseParser parser;
    parser.feed("data: complete\n\n"_ba);
    parser.finish();
    QCOMPARE(parser.takeEvents(), QList{message(u"complete"_s)});
    QVERIFY(!parser.hasPendingData());
    QVERIFY(!parser.hasError());
}

void StreamParsersTest::feedAfterFinishIsIgnored()
{
    SseParser parser;
    parser.feed("data: a\n"_ba);
    parser.finish();
    parser.feed("\ndata: b\n\n"_ba);
    QVERIFY(parser.takeEvents().isEmpty());
    QVERIFY(parser.hasPendingData());
}

void StreamParsersTest::retryWithoutDataIsStillReportedByTheParser()
{
    SseParser parser;
    QVERIFY(!parser.retryMs().has_value());
    parser.feed("retry: 2500\n\n"_ba);
    QVERIFY(parser.takeEvents().isEmpty());
    QCOMPARE(parser.retryMs().value_or(-1), 2500);

    parser.feed("retry: soon\ndata: a\n\n"_ba);
    QCOMPARE(parser.takeEvents(), QList{message(u"a"_s)});
    QCOMPARE(parser.retryMs().value_or(-1), 2500); // an invalid value changes nothing
}

void StreamParsersTest::oversizedLineOrEventStopsTheParserWithAnError_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QList<SseEvent>>("expected");
    QTest::addColumn<bool>("error");

    // All rows use a 16-byte limit.
    QTest::newRow("a line exactly at the limit is accepted")
        << "data: 0123456789\n\n"_ba << QList{message(u"0123456789"_s)} << false;
    QTest::newRow("a complete line over the limit")
        << "data: ok\n\ndata: 0123456789a\n\ndata: later\n\n"_ba << QList{message(u"ok"_s)} << true;
    QTest::newRow("an unterminated line that grows over the limit")
        << "data: ok\n\ndata: 0123456789abcdef"_ba << QList{message(u"ok"_s)} << true;
    QTest::newRow("a comment line over the limit")
        << ": 0123456789abcdefghij\ndata: x\n\n"_ba << QList<SseEvent>{} << true;
    QTest::newRow("short data lines that add up to an event over the limit")
        << "data: ok\n\ndata: 01234\ndata: 56789\ndata: abcde\n\ndata: later\n\n"_ba
        << QList{message(u"ok"_s)} << true;
}

void StreamParsersTest::oversizedLineOrEventStopsTheParserWithAnError()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<SseEvent>, expected);
    QFETCH(bool, error);

    constexpr qsizetype limit = 16;
    for (const Split &split : splitsOf(stream.size())) {
        SseParser parser(limit);
        QList<SseEvent> events;
        for (const QByteArray &piece : piecesOf(stream, split)) {
            parser.feed(piece);
            events += parser.takeEvents();
        }
        QVERIFY2(events == expected, qPrintable(mismatch(split, describe(events), describe(expected))));
        QVERIFY2(parser.hasError() == error, qPrintable(split.name));
        if (!error)
            continue;
        QVERIFY2(parser.errorString().contains(u"16"_s), qPrintable(parser.errorString()));
        // Once stopped, the parser stays stopped.
        parser.feed("\n\ndata: more\n\n"_ba);
        QVERIFY(parser.takeEvents().isEmpty());
        QVERIFY(parser.hasError());
    }
}

void StreamParsersTest::defaultSizeLimitIsSixteenMebibytes()
{
    QCOMPARE(SseParser::DefaultMaxEventBytes, qsizetype(16 * 1024 * 1024));
    QCOMPARE(NdjsonParser::DefaultMaxLineBytes, qsizetype(16 * 1024 * 1024));
}

void StreamParsersTest::longLineFedOneByteAtATimeLosesNoEvent()
{
    // The slowest server's pieces: one byte each. What this costs per byte as the line grows is
    // measured by tests/bench/parserbench.cpp.
    const qsizetype lineLength = 256 * 1024;
    QByteArray stream = "data: "_ba + QByteArray(lineLength, 'x') + "\n\n"_ba;
    for (int i = 0; i < 20000; ++i)
        stream += "data: " + QByteArray::number(i) + "\n\n";

    SseParser parser;
    qsizetype count = 0;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        parser.feed(QByteArrayView(stream).sliced(i, 1));
        if (i % 4096 == 0)
            count += parser.takeEvents().size();
    }
    const QList<SseEvent> last = parser.takeEvents();
    count += last.size();
    QCOMPARE(count, 20001);
    QCOMPARE(last.constLast().data, u"19999"_s);
}

void StreamParsersTest::openAiStreamYieldsToolCallFragmentsAndDoneHoweverItIsSplit()
{
    // An OpenAI-compatible chat completions stream as OpenRouter relays it: a keep-alive comment,
    // text, a tool call whose arguments arrive in fragments, a usage chunk and [DONE].
    const QByteArray stream
        = ": OPENROUTER PROCESSING\n\n"
          "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1721000000,"
          "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
          "\"content\":\"Checking \\u2026 \xE2\x80\xA6\"},\"finish_reason\":null}]}\n\n"
          "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1721000000,"
          "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
          "\"id\":\"call_Q1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":"
          "\"\"}}]},"
          "\"finish_reason\":null}]}\n\n"
          "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1721000000,"
          "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
          "\"function\":{\"arguments\":\"{\\\"ci\"}}]},\"finish_reason\":null}]}\n\n"
          "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1721000000,"
          "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
          "\"function\":{\"arguments\":\"ty\\\": \\\"Z\xC3\xBC\"}}]},\"finish_reason\":null}]}\n\n"
          "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1721000000,"
          "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
          "\"function\":{\"arguments\":\"rich\\\"}\"}}]},\"finish_reason\":null}]}\n\n"
          "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1721000000,"
          "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}"
          "]}\n\n"
          "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1721000000,"
          "\"model\":\"gpt-4o-mini\",\"choices\":[],\"usage\":{\"prompt_tokens\":42,\"completion_tokens\":17,"
          "\"total_tokens\":59}}\n\n"
          "data: [DONE]\n\n"_ba;

    const QList<SseEvent> reference = parseSse(stream, {}).events;
    for (const Split &split : splitsOf(stream.size())) {
        const SseOutcome outcome = parseSse(stream, split);
        QVERIFY2(outcome.events == reference, qPrintable(split.name));
        QVERIFY2(!outcome.pendingAfterFinish, qPrintable(split.name));
    }

    QCOMPARE(reference.size(), 8);
    QCOMPARE(reference.constLast(), message(u"[DONE]"_s));
    QString text;
    QString arguments;
    QString finishReason;
    for (const SseEvent &event : reference.first(7)) {
        QCOMPARE(event.type, u"message"_s);
        QJsonParseError error;
        const QJsonObject chunk = QJsonDocument::fromJson(event.data.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject choice = chunk.value(u"choices"_s).toArray().at(0).toObject();
        const QJsonObject delta = choice.value(u"delta"_s).toObject();
        text += delta.value(u"content"_s).toString();
        const QJsonArray calls = delta.value(u"tool_calls"_s).toArray();
        for (const QJsonValue &call : calls)
            arguments += call[u"function"_s][u"arguments"_s].toString();
        if (choice.value(u"finish_reason"_s).isString())
            finishReason = choice.value(u"finish_reason"_s).toString();
    }
    QCOMPARE(text, u"Checking \u2026 \u2026"_s);
    QCOMPARE(arguments, u"{\"city\": \"Z\u00fcrich\"}"_s);
    QCOMPARE(QJsonDocument::fromJson(arguments.toUtf8()).object().value(u"city"_s).toString(),
             u"Z\u00fcrich"_s);
    QCOMPARE(finishReason, u"tool_calls"_s);
}

void StreamParsersTest::anthropicStreamYieldsTypedEventsIncludingPingHoweverItIsSplit()
{
    // Anthropic Messages streaming: every event has an "event:" line matching its data's "type".
    const QByteArray stream
        = "event: message_start\n"
          "data: "
          "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_01\",\"type\":\"message\",\"role\":"
          "\"assistant\","
          "\"content\":[],\"model\":\"claude-sonnet-4-5\",\"stop_reason\":null,\"stop_sequence\":null,"
          "\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}\n\n"
          "event: content_block_start\n"
          "data: "
          "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"
          "\n\n"
          "event: ping\n"
          "data: {\"type\": \"ping\"}\n\n"
          "event: content_block_delta\n"
          "data: "
          "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":"
          "\"Gr\xC3\xBC\xC3\x9F"
          "e\"}}\n\n"
          "event: content_block_delta\n"
          "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
          "\"text\":\", world \xF0\x9F\x91\x8B\"}}\n\n"
          "event: content_block_stop\n"
          "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
          "event: message_delta\n"
          "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},"
          "\"usage\":{\"output_tokens\":15}}\n\n"
          "event: message_stop\n"
          "data: {\"type\":\"message_stop\"}\n\n"_ba;

    const QList<SseEvent> reference = parseSse(stream, {}).events;
    for (const Split &split : splitsOf(stream.size())) {
        const SseOutcome outcome = parseSse(stream, split);
        QVERIFY2(outcome.events == reference, qPrintable(split.name));
        QVERIFY2(!outcome.pendingAfterFinish, qPrintable(split.name));
    }

    QStringList types;
    QString text;
    for (const SseEvent &event : reference) {
        types.append(event.type);
        const QJsonObject data = QJsonDocument::fromJson(event.data.toUtf8()).object();
        QCOMPARE(data.value(u"type"_s).toString(), event.type);
        text += data[u"delta"_s][u"text"_s].toString();
    }
    QCOMPARE(types, (QStringList{u"message_start"_s, u"content_block_start"_s, u"ping"_s,
                                 u"content_block_delta"_s, u"content_block_delta"_s, u"content_block_stop"_s,
                                 u"message_delta"_s, u"message_stop"_s}));
    QCOMPARE(text, u"Gr\u00fc\u00dfe, world \U0001F44B"_s);
}

void StreamParsersTest::geminiCrLfFramedStreamYieldsEveryChunkHoweverItIsSplit()
{
    // Gemini streamGenerateContent?alt=sse frames every chunk with CRLF line endings.
    const QByteArray stream
        = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"The\"}],\"role\": \"model\"},"
          "\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 9,\"totalTokenCount\": 9},"
          "\"modelVersion\": \"gemini-2.0-flash\"}\r\n\r\n"
          "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \" quick brown fox\"}],\"role\": "
          "\"model\"},"
          "\"index\": 0}],\"modelVersion\": \"gemini-2.0-flash\"}\r\n\r\n"
          "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \" jumps \xE2\x80\x94 \xC3\xBC"
          "ber\\n\"}],"
          "\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": "
          "{\"promptTokenCount\": 9,\"candidatesTokenCount\": 8,\"totalTokenCount\": 17},"
          "\"modelVersion\": \"gemini-2.0-flash\"}\r\n\r\n"_ba;

    const QList<SseEvent> reference = parseSse(stream, {}).events;
    for (const Split &split : splitsOf(stream.size())) {
        const SseOutcome outcome = parseSse(stream, split);
        QVERIFY2(outcome.events == reference, qPrintable(split.name));
        QVERIFY2(!outcome.pendingAfterFinish, qPrintable(split.name));
    }

    QCOMPARE(reference.size(), 3);
    QString text;
    QString finishReason;
    for (const SseEvent &event : reference) {
        QCOMPARE(event.type, u"message"_s);
        QVERIFY(!event.data.contains(u'\r'));
        const QJsonObject candidate
            = QJsonDocument::fromJson(event.data.toUtf8()).object()[u"candidates"_s][0].toObject();
        text += candidate[u"content"_s][u"parts"_s][0][u"text"_s].toString();
        finishReason = candidate.value(u"finishReason"_s).toString();
    }
    QCOMPARE(text, u"The quick brown fox jumps \u2014 \u00fcber\n"_s);
    QCOMPARE(finishReason, u"STOP"_s);
}

void StreamParsersTest::ndjsonStreamYieldsTheSameObjectsHoweverItIsSplit_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QList<QJsonObject>>("expected");
    QTest::addColumn<bool>("pending");

    // Ollama /api/chat: text in pieces, a tool call with arguments as an object, then done.
    const QByteArrayList ollamaLines{
        "{\"model\":\"llama3.2\",\"created_at\":\"2024-07-22T20:33:28.123648Z\","
        "\"message\":{\"role\":\"assistant\",\"content\":\"Hel\"},\"done\":false}"_ba,
        "{\"model\":\"llama3.2\",\"created_at\":\"2024-07-22T20:33:28.223648Z\","
        "\"message\":{\"role\":\"assistant\",\"content\":\"lo \xE2\x9C\x93 \xF0\x9F\x98\x80\"},\"done\":false}"_ba,
        "{\"model\":\"llama3.2\",\"created_at\":\"2024-07-22T20:33:28.323648Z\","
        "\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":"
        "{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}}]},\"done\":false}"_ba,
        "{\"model\":\"llama3.2\",\"created_at\":\"2024-07-22T20:33:28.423648Z\","
        "\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done_reason\":\"stop\",\"done\":true,"
        "\"total_duration\":4883583458,\"prompt_eval_count\":26,\"eval_count\":12}"_ba};
    QList<QJsonObject> ollamaObjects;
    for (const QByteArray &line : ollamaLines)
        ollamaObjects.append(jsonObject(line));
    QCOMPARE(ollamaObjects.size(), 4);
    QCOMPARE(ollamaObjects.at(1)[u"message"_s][u"content"_s].toString(), u"lo \u2713 \U0001F600"_s);

    QTest::newRow("Ollama chat stream")
        << QByteArray(ollamaLines.join('\n') + '\n') << ollamaObjects << false;
    QTest::newRow("Ollama chat stream with CRLF line endings")
        << QByteArray(ollamaLines.join("\r\n") + "\r\n") << ollamaObjects << false;
    QTest::newRow("blank and whitespace-only lines are skipped")
        << "\n{\"a\":1}\n\n\r\n  \t\n{\"b\":2}\n\n"_ba
        << QList{QJsonObject{{u"a"_s, 1}}, QJsonObject{{u"b"_s, 2}}} << false;
    QTest::newRow("a final line without newline is accepted at finish")
        << "{\"a\":1}\n{\"b\":2}"_ba << QList{QJsonObject{{u"a"_s, 1}}, QJsonObject{{u"b"_s, 2}}} << false;
    QTest::newRow("a cut final line is discarded and pending")
        << "{\"a\":1}\n{\"b\":"_ba << QList{QJsonObject{{u"a"_s, 1}}} << true;
    QTest::newRow("U+2028 inside a string does not break the line")
        << "{\"t\":\"a\xE2\x80\xA8"
           "b\"}\n"_ba
        << QList{QJsonObject{{u"t"_s, u"a\u2028b"_s}}} << false;
    QTest::newRow("a lone CR inside a line is not a line end")
        << "{\"a\":\r1}\n"_ba << QList{QJsonObject{{u"a"_s, 1}}} << false;
    QTest::newRow("empty stream") << QByteArray() << QList<QJsonObject>{} << false;
}

void StreamParsersTest::ndjsonStreamYieldsTheSameObjectsHoweverItIsSplit()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<QJsonObject>, expected);
    QFETCH(bool, pending);

    // Before finish() the final unterminated line of the "accepted at finish" row is still pending.
    const bool pendingBeforeFinish = pending || (!stream.isEmpty() && !stream.endsWith('\n'));
    const NdjsonOutcome reference{expected, pendingBeforeFinish, pending, {}};
    for (const Split &split : splitsOf(stream.size())) {
        const NdjsonOutcome outcome = parseNdjson(stream, split);
        QVERIFY2(outcome == reference, qPrintable(mismatch(split, describe(outcome), describe(reference))));
    }
}

void StreamParsersTest::ndjsonLineThatIsNotAnObjectStopsParsingWithItsLineNumber_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QList<QJsonObject>>("expected");
    QTest::addColumn<QStringList>("errorParts");

    const QList<QJsonObject> first{QJsonObject{{u"a"_s, 1}}};
    QTest::newRow("broken JSON on line 3, after a blank line")
        << "{\"a\":1}\n\n{\"a\":2,}\n{\"a\":3}\n"_ba << first
        << QStringList{u"Line 3"_s, parseErrorText("{\"a\":2,}"_ba)};
    QTest::newRow("an array on line 2")
        << "{\"a\":1}\n[1,2]\n{\"a\":3}\n"_ba << first << QStringList{u"Line 2"_s, u"not a JSON object"_s};
    // Qt 6.4 rejects top-level scalars as a parse error rather than parsing them as a non-object.
    QTest::newRow("a bare number on line 1")
        << "42\n{\"a\":1}\n"_ba << QList<QJsonObject>{} << QStringList{u"Line 1"_s, parseErrorText("42"_ba)};
    QTest::newRow("two objects on one line")
        << "{\"a\":1}\n{\"a\":2}{\"a\":3}\n"_ba << first
        << QStringList{u"Line 2"_s, parseErrorText("{\"a\":2}{\"a\":3}"_ba)};
    QTest::newRow("an SSE frame instead of NDJSON on line 1")
        << "data: {\"a\":1}\n"_ba << QList<QJsonObject>{}
        << QStringList{u"Line 1"_s, parseErrorText("data: {\"a\":1}"_ba)};
    QTest::newRow("an array as the unterminated final line")
        << "{\"a\":1}\n[1]"_ba << first << QStringList{u"Line 2"_s, u"not a JSON object"_s};
}

void StreamParsersTest::ndjsonLineThatIsNotAnObjectStopsParsingWithItsLineNumber()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<QJsonObject>, expected);
    QFETCH(QStringList, errorParts);

    for (const Split &split : splitsOf(stream.size())) {
        NdjsonParser parser;
        QList<QJsonObject> objects;
        for (const QByteArray &piece : piecesOf(stream, split)) {
            parser.feed(piece);
            objects += parser.takeObjects();
        }
        parser.finish();
        objects += parser.takeObjects();
        QVERIFY2(objects == expected, qPrintable(mismatch(split, describe(objects), describe(expected))));
        QVERIFY2(parser.hasError(), qPrintable(split.name));
        for (const QString &part : std::as_const(errorParts))
            QVERIFY2(parser.errorString().contains(part), qPrintable(parser.errorString()));

        // Once stopped, the parser stays stopped.
        parser.feed("\n{\"b\":1}\n"_ba);
        QVERIFY(parser.takeObjects().isEmpty());
    }
}

void StreamParsersTest::ndjsonCutFinalLineIsReportedAsPendingNotAsAnError()
{
    NdjsonParser parser;
    parser.feed("{\"done\":false}\n{\"message\":{\"content\":\"cut her"_ba);
    QCOMPARE(parser.takeObjects(), (QList{QJsonObject{{u"done"_s, false}}}));
    QVERIFY(parser.hasPendingData());
    parser.finish();
    QVERIFY(parser.takeObjects().isEmpty());
    QVERIFY(parser.hasPendingData());
    QVERIFY(!parser.hasError());

    NdjsonParser clean;
    clean.feed("{\"done\":true}\n"_ba);
    QVERIFY(!clean.hasPendingData());
    clean.finish();
    QVERIFY(!clean.hasPendingData());
    QCOMPARE(clean.takeObjects(), (QList{QJsonObject{{u"done"_s, true}}}));
}

void StreamParsersTest::ndjsonOversizedLineStopsTheParserWithAnError()
{
    const QByteArray stream = "{\"a\":1}\n{\"b\":\"0123456789\"}\n{\"c\":3}\n"_ba;
    for (const Split &split : splitsOf(stream.size())) {
        NdjsonParser parser(16);
        QList<QJsonObject> objects;
        for (const QByteArray &piece : piecesOf(stream, split)) {
            parser.feed(piece);
            objects += parser.takeObjects();
        }
        QCOMPARE(objects, (QList{QJsonObject{{u"a"_s, 1}}}));
        QVERIFY2(parser.hasError(), qPrintable(split.name));
        QVERIFY2(parser.errorString().contains(u"Line 2"_s), qPrintable(parser.errorString()));
        QVERIFY2(parser.errorString().contains(u"16"_s), qPrintable(parser.errorString()));
    }
}

void StreamParsersTest::ndjsonLongLineFedOneByteAtATimeLosesNoObject()
{
    const QByteArray hugeLine = "{\"text\":\""_ba + QByteArray(256 * 1024, 'x') + "\"}\n"_ba;
    QByteArray stream = hugeLine;
    for (int i = 0; i < 20000; ++i)
        stream += "{\"i\":" + QByteArray::number(i) + "}\n";

    NdjsonParser parser;
    qsizetype count = 0;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        parser.feed(QByteArrayView(stream).sliced(i, 1));
        if (i % 4096 == 0)
            count += parser.takeObjects().size();
    }
    const QList<QJsonObject> last = parser.takeObjects();
    count += last.size();
    QVERIFY(!parser.hasError());
    QCOMPARE(count, 20001);
    QCOMPARE(last.constLast().value(u"i"_s).toInt(), 19999);
}

QTEST_GUILESS_MAIN(StreamParsersTest)
#include "tst_streamparsers.moc"

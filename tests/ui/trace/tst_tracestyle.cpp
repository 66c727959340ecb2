#include "agent/trace/tracemodel.h"
#include "tests/ui/trace/tracesamples.h"
#include "ui/trace/traceicons.h"
#include "ui/trace/tracestyleproxy.h"

#include <QAbstractItemModelTester>
#include <QIcon>
#include <QImage>
#include <QPalette>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

double relativeLuminance(const QColor &color)
{
    const auto channel = [](double value) {
        return value <= 0.03928 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF())
           + 0.0722 * channel(color.blueF());
}

// WCAG's contrast ratio, from 1 (none) to 21 (black on white).
double contrast(const QColor &a, const QColor &b)
{
    const double la = relativeLuminance(a);
    const double lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette themePalette(const QString &theme)
{
    QPalette palette;
    if (theme == u"dark"_s) {
        palette.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        palette.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        palette.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        palette.setColor(QPalette::PlaceholderText, QColor(0x99, 0x99, 0x99));
    } else {
        palette.setColor(QPalette::Base, Qt::white);
        palette.setColor(QPalette::Window, QColor(0xef, 0xef, 0xef));
        palette.setColor(QPalette::Text, Qt::black);
        palette.setColor(QPalette::PlaceholderText, QColor(0x70, 0x70, 0x70));
    }
    return palette;
}

int opaquePixels(const QImage &image)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            count += qAlpha(image.pixel(x, y)) > 0 ? 1 : 0;
    }
    return count;
}

constexpr TraceKind AllKinds[]
    = {TraceKind::Turn,     TraceKind::Iteration,   TraceKind::ModelCall,  TraceKind::Retry,
       TraceKind::ToolCall, TraceKind::ShieldCheck, TraceKind::Reflection, TraceKind::Summary,
       TraceKind::Handoff,  TraceKind::Error,       TraceKind::McpServer};

} // namespace

class TraceStyleTest : public QObject
{
    Q_OBJECT

private slots:
    void everyKindHasAGlyphDrawnForTheScreensPixelRatio_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<qreal>("ratio");
        for (TraceKind kind : AllKinds) {
            for (qreal ratio : {1.0, 1.5, 2.0}) {
                const QByteArray name
                    = traceKindName(kind).toUtf8() + " at " + QByteArray::number(ratio) + "x";
                QTest::newRow(name.constData()) << int(kind) << ratio;
            }
        }
    }

    void everyKindHasAGlyphDrawnForTheScreensPixelRatio()
    {
        QFETCH(int, kind);
        QFETCH(qreal, ratio);
        const QIcon icon = Ui::TraceIcons::kindIcon(TraceKind(kind));
        QVERIFY(!icon.isNull());

        const QPixmap pixmap = icon.pixmap(QSize(16, 16), ratio);
        QCOMPARE(pixmap.devicePixelRatio(), ratio);
        QCOMPARE(pixmap.size(), (QSizeF(16, 16) * ratio).toSize());
        // A glyph, not an empty square and not a filled one.
        const int painted = opaquePixels(pixmap.toImage());
        const int all = pixmap.width() * pixmap.height();
        QVERIFY2(painted > all / 10 && painted < all, qPrintable(QString::number(painted)));
    }

    void glyphsOfDifferentKindsDiffer()
    {
        QList<QImage> images;
        for (TraceKind kind : AllKinds) {
            const QImage image = Ui::TraceIcons::kindIcon(kind).pixmap(QSize(32, 32), 1.0).toImage();
            QVERIFY2(!images.contains(image), qPrintable(traceKindName(kind)));
            images.append(image);
        }
    }

    void statusColoursAreReadableOnLightAndDarkBases_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::addColumn<int>("status");
        for (const QString &theme : {u"light"_s, u"dark"_s}) {
            for (TraceStatus status : {TraceStatus::Running, TraceStatus::Ok, TraceStatus::Error,
                                       TraceStatus::Blocked, TraceStatus::Denied, TraceStatus::Limited}) {
                const QString name = traceStatusName(status) + u" on "_s + theme;
                QTest::newRow(name.toUtf8().constData()) << theme << int(status);
            }
        }
    }

    void statusColoursAreReadableOnLightAndDarkBases()
    {
        QFETCH(QString, theme);
        QFETCH(int, status);
        const QPalette palette = themePalette(theme);
        const QColor colour = Ui::TraceIcons::statusColor(TraceStatus(status), palette);
        for (QPalette::ColorRole background : {QPalette::Base, QPalette::Window}) {
            const double ratio = contrast(colour, palette.color(background));
            QVERIFY2(ratio >= 4.5, qPrintable(u"contrast %1 for %2"_s.arg(ratio).arg(colour.name())));
        }
    }

    void aTurnEndedByTheLimitIsNotPaintedAsOkOrAsAnError()
    {
        for (const QString &theme : {u"light"_s, u"dark"_s}) {
            const QPalette palette = themePalette(theme);
            const QColor limited = Ui::TraceIcons::statusColor(TraceStatus::Limited, palette);
            QVERIFY(limited != Ui::TraceIcons::statusColor(TraceStatus::Ok, palette));
            QVERIFY(limited != Ui::TraceIcons::statusColor(TraceStatus::Error, palette));
            QVERIFY(limited != palette.color(QPalette::Text));
        }
    }

    void stepsThatDidNotRunUseThePalettesQuietColour()
    {
        const QPalette palette = themePalette(u"dark"_s);
        QCOMPARE(Ui::TraceIcons::statusColor(TraceStatus::Skipped, palette),
                 palette.color(QPalette::PlaceholderText));
        QCOMPARE(Ui::TraceIcons::statusColor(TraceStatus::Cancelled, palette),
                 palette.color(QPalette::PlaceholderText));
    }

    void theProxyAddsIconsToNamesAndColoursToStatuses()
    {
        Trace trace;
        TraceModel model(&trace);
        Ui::TraceStyleProxy style;
        style.setPalette(themePalette(u"light"_s));
        style.setSourceModel(&model);
        QAbstractItemModelTester tester(&style, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const TraceSamples::Sample sample = TraceSamples::addSampleTurn(trace);

        const auto cell = [&](int node, int column) {
            return style.mapFromSource(model.indexForNode(node, column));
        };
        QVERIFY(
            cell(sample.modelCall, TraceModel::NameColumn).data(Qt::DecorationRole).value<QIcon>().isNull()
            == false);
        QVERIFY(!cell(sample.modelCall, TraceModel::StatusColumn).data(Qt::DecorationRole).isValid());
        QCOMPARE(cell(sample.readFile, TraceModel::StatusColumn).data(Qt::ForegroundRole).value<QColor>(),
                 Ui::TraceIcons::statusColor(TraceStatus::Ok, style.palette()));
        QCOMPARE(cell(sample.runShell, TraceModel::StatusColumn).data(Qt::ForegroundRole).value<QColor>(),
                 Ui::TraceIcons::statusColor(TraceStatus::Error, style.palette()));
        // A step that went wrong is coloured across the row; one that went well keeps the text colour.
        QCOMPARE(cell(sample.runShell, TraceModel::NameColumn).data(Qt::ForegroundRole).value<QColor>(),
                 Ui::TraceIcons::statusColor(TraceStatus::Error, style.palette()));
        QVERIFY(!cell(sample.readFile, TraceModel::NameColumn).data(Qt::ForegroundRole).isValid());
        // Everything else passes through.
        QCOMPARE(cell(sample.readFile, TraceModel::NameColumn).data().toString(), u"read_file"_s);
        QCOMPARE(cell(sample.readFile, TraceModel::NameColumn).data(TraceModel::ToolNameRole).toString(),
                 u"read_file"_s);
    }

    void anIterationIsRedForAFailureNeverForItsLength()
    {
        using TraceSamples::Ms;
        using TraceSamples::T0;
        Trace trace;
        TraceModel model(&trace);
        Ui::TraceStyleProxy style;
        style.setPalette(themePalette(u"light"_s));
        style.setSourceModel(&model);
        QAbstractItemModelTester tester(&style, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, T0, TurnData{});
        // 16.6 s, nearly all of it the user's approval, and the tool then did its job.
        const int slow = trace.begin(turn, TraceKind::Iteration, u"slow"_s, T0, IterationData{1, 10});
        const int wait
            = trace.begin(slow, TraceKind::Wait, u"w"_s, T0, WaitData{u"approval"_s, u"allowed"_s});
        trace.finish(wait, TraceStatus::Ok, T0 + 16'000 * Ms);
        trace.finish(slow, TraceStatus::Ok, T0 + 16'600 * Ms);
        // 0.2 s, and every tool call failed.
        const int failed
            = trace.begin(turn, TraceKind::Iteration, u"failed"_s, T0 + 16'600 * Ms, IterationData{2, 10});
        trace.finish(failed, TraceStatus::Error, T0 + 16'800 * Ms);
        trace.finish(turn, TraceStatus::Ok, T0 + 17'000 * Ms);

        const QColor red = Ui::TraceIcons::statusColor(TraceStatus::Error, style.palette());
        for (int column : {int(TraceModel::NameColumn), int(TraceModel::DurationColumn)}) {
            const QModelIndex slowCell = style.mapFromSource(model.indexForNode(slow, column));
            const QModelIndex failedCell = style.mapFromSource(model.indexForNode(failed, column));
            QVERIFY(!slowCell.data(Qt::ForegroundRole).isValid());
            QCOMPARE(failedCell.data(Qt::ForegroundRole).value<QColor>(), red);
        }
    }

    void aNewPaletteRecoloursEveryRow()
    {
        Trace trace;
        TraceModel model(&trace);
        Ui::TraceStyleProxy style;
        style.setPalette(themePalette(u"light"_s));
        style.setSourceModel(&model);
        QAbstractItemModelTester tester(&style, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const TraceSamples::Sample sample = TraceSamples::addSampleTurn(trace);
        QSignalSpy changed(&style, &QAbstractItemModel::dataChanged);

        style.setPalette(themePalette(u"dark"_s));

        // One notification per parent: the roots, the turn, the iteration, the model call.
        QCOMPARE(changed.count(), 4);
        for (const QList<QVariant> &arguments : std::as_const(changed))
            QCOMPARE(arguments.at(2).value<QList<int>>(), QList<int>{Qt::ForegroundRole});
        const QModelIndex status
            = style.mapFromSource(model.indexForNode(sample.runShell, TraceModel::StatusColumn));
        QCOMPARE(status.data(Qt::ForegroundRole).value<QColor>(),
                 Ui::TraceIcons::statusColor(TraceStatus::Error, themePalette(u"dark"_s)));
        QVERIFY(status.data(Qt::ForegroundRole).value<QColor>()
                != Ui::TraceIcons::statusColor(TraceStatus::Error, themePalette(u"light"_s)));

        style.setPalette(themePalette(u"dark"_s));
        QCOMPARE(changed.count(), 4); // the same palette again changes nothing
    }
};

QTEST_MAIN(TraceStyleTest)
#include "tst_tracestyle.moc"

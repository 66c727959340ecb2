#include "tests/replay/recordingfixture.h"
#include "translations/translations.h"
#include "ui/compare/comparedialog.h"
#include "ui/compare/comparisonview.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTreeWidget>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;

namespace {

// The standard turn by a real agent; multiply off by \a multiplyBias.
ComparedTurn record(const QString &source, int multiplyBias = 0)
{
    Recording recording;
    recording.tools.multiplyBias = multiplyBias;
    recording.run(question, threeIterations());
    return ComparedTurn::fromTrace(recording.trace, recording.trace.roots().constLast(), source).value();
}

} // namespace

class ComparisonViewTest : public QObject
{
    Q_OBJECT

private:
    ComparedTurn m_recorded;
    ComparedTurn m_biased;

private slots:
    void initTestCase()
    {
        Translations::install();
        m_recorded = record(u"recorded"_s);
        m_biased = record(u"biased"_s, 1);
    }

    void twoDifferingTurnsShowTheSummaryAndTheFirstDifferenceSelected()
    {
        ComparisonView view(RunComparison(m_recorded, m_biased));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        QCOMPARE(view.summaryLabel()->text(), u"diverged at iteration 1: multiply results differ"_s);
        QTreeWidgetItem *current = view.stepTree()->currentItem();
        QVERIFY(current);
        QCOMPARE(ComparisonView::rowOf(current), view.comparison().firstDifference());
        QCOMPARE(current->text(ComparisonView::StepColumn), u"result"_s);
        QCOMPARE(current->text(ComparisonView::LeftColumn), u"20"_s);
        QCOMPARE(current->text(ComparisonView::RightColumn), u"21"_s);
        QCOMPARE(current->text(ComparisonView::StatusColumn), u"≠"_s);
        QVERIFY(current->font(ComparisonView::StepColumn).bold());
        QVERIFY(current->background(ComparisonView::LeftColumn).style() != Qt::NoBrush);
        // Under the multiply call, which is open, so the row is in view.
        QCOMPARE(current->parent()->text(ComparisonView::StepColumn), u"multiply"_s);
        QVERIFY(current->parent()->isExpanded());
        QVERIFY(view.stepTree()->viewport()->rect().intersects(view.stepTree()->visualItemRect(current)));
        // Only the first difference stands out.
        QTreeWidgetItem *question = view.stepTree()->topLevelItem(0);
        QVERIFY(!question->font(ComparisonView::StepColumn).bold());
        QCOMPARE(question->text(ComparisonView::StatusColumn), u"="_s);
    }

    void equalTurnsSayIdenticalAndStandOutNowhere()
    {
        ComparisonView view(RunComparison(m_recorded, m_recorded));
        view.show();
        QCOMPARE(view.summaryLabel()->text(), u"identical"_s);
        QCOMPARE(ComparisonView::rowOf(view.stepTree()->currentItem()), 0);
        for (QTreeWidgetItemIterator it(view.stepTree()); *it; ++it)
            QVERIFY(!(*it)->font(ComparisonView::StepColumn).bold());
    }

    void selectingAModelRequestShowsTheDiffOfWhatWasSent()
    {
        ComparisonView view(RunComparison(m_recorded, m_biased));
        view.show();
        QVERIFY(view.requestDiffView()->toPlainText().isEmpty()); // a tool result has no request

        QTreeWidgetItem *secondRequest = view.itemOf(8);
        QCOMPARE(secondRequest->text(ComparisonView::StepColumn), u"model request"_s);
        view.stepTree()->setCurrentItem(secondRequest);
        const QStringList lines = view.requestDiffView()->toPlainText().split(u'\n');
        QVERIFY(lines.contains(u"  model: test-model"_s));
        QVERIFY(lines.contains(u"−     20"_s));
        QVERIFY(lines.contains(u"+     21"_s));
        // The changed lines are coloured, the others not.
        const QTextDocument *document = view.requestDiffView()->document();
        for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
            const bool changed = !block.text().startsWith(u"  "_s);
            QCOMPARE(block.blockFormat().background().style() != Qt::NoBrush, changed);
        }

        view.stepTree()->setCurrentItem(view.itemOf(0));
        QVERIFY(view.requestDiffView()->toPlainText().isEmpty());
    }

    void theViewFitsCommonWindowSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("900×600") << QSize(900, 600);
        QTest::newRow("1280×800") << QSize(1280, 800);
        QTest::newRow("1920×1080") << QSize(1920, 1080);
    }

    void theViewFitsCommonWindowSizes()
    {
        QFETCH(QSize, size);
        ComparisonView view(RunComparison(m_recorded, m_biased));
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE(view.size(), size);
        QTreeWidget *tree = view.stepTree();
        // No sideways scrolling, and both runs get the same, readable width.
        QVERIFY(!tree->horizontalScrollBar()->isVisible());
        const int left = tree->header()->sectionSize(ComparisonView::LeftColumn);
        const int right = tree->header()->sectionSize(ComparisonView::RightColumn);
        QVERIFY2(left >= tree->fontMetrics().averageCharWidth() * 20, qPrintable(QString::number(left)));
        QVERIFY(std::abs(left - right) <= 1);
        QVERIFY(tree->height() > view.requestDiffView()->height());
        QVERIFY(view.summaryLabel()->isVisible());
    }

    void theDialogPicksTurnsOfThisSessionAndOfAFile()
    {
        QTemporaryDir dir;
        Recording other;
        other.run(u"Say hi"_s, {ScriptedModelClient::text(u"hi"_s)});
        const QString path = dir.filePath(u"other.loopscope.json"_s);
        QVERIFY(TranscriptFile::save(other.transcript(), path));

        CompareDialog dialog({m_recorded, m_biased}, u"Sums"_s, 1);
        QPushButton *compare = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(compare->isEnabled());
        QCOMPARE(dialog.leftTurn()->source, u"biased"_s);    // the selected turn
        QCOMPARE(dialog.rightTurn()->source, u"recorded"_s); // the one before it

        QSignalSpy loaded(&dialog, &CompareDialog::sessionLoaded);
        dialog.addSessionFile(1, path);
        QTRY_COMPARE(loaded.size(), 1);
        QCOMPARE(loaded.first().at(1).toBool(), true);
        // By its title and time, never by its file name.
        const QString label = u"%1 · %2 (1 turn)"_s.arg(
            other.transcript().title,
            QLocale().toString(other.transcript().updated.toLocalTime(), QLocale::ShortFormat));
        QVERIFY(!other.transcript().title.isEmpty());
        QCOMPARE(dialog.sessionBox(1)->currentText(), label);
        QCOMPARE(dialog.rightTurn()->question, u"Say hi"_s);
        QVERIFY2(dialog.rightTurn()->source.startsWith(other.transcript().title + u" · "_s),
                 qPrintable(dialog.rightTurn()->source));
        QVERIFY(!dialog.rightTurn()->source.contains(u".loopscope.json"_s));
        QCOMPARE(dialog.leftTurn()->source, u"biased"_s);
        QVERIFY(compare->isEnabled());
        // The file is offered to A too, before "Browse…".
        QCOMPARE(dialog.sessionBox(0)->itemText(1), label);

        QFile garbage(dir.filePath(u"garbage.loopscope.json"_s));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write("{ not json");
        garbage.close();
        dialog.addSessionFile(0, garbage.fileName());
        QTRY_COMPARE(loaded.size(), 2);
        QCOMPARE(loaded.last().at(1).toBool(), false);
        QVERIFY(dialog.errorLabel()->text().startsWith(u"Cannot read garbage.loopscope.json"_s));
        QCOMPARE(dialog.sessionBox(0)->count(), 3); // this session, other, Browse…
        QCOMPARE(dialog.leftTurn()->source, u"biased"_s);
    }
};

QTEST_MAIN(ComparisonViewTest)
#include "tst_comparisonview.moc"

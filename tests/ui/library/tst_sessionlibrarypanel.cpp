// The session library panel over a SessionLibrary on a temporary folder.

#include "agent/session/sessionlibrary.h"
#include "agent/transcript/transcript.h"
#include "translations/translations.h"
#include "ui/library/sessionlibrarypanel.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QStringList columnTexts(const QTreeWidget *list, int column)
{
    QStringList texts;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        texts.append(list->topLevelItem(i)->text(column));
    return texts;
}

QTreeWidgetItem *itemWithText(const QTreeWidget *list, const QString &text)
{
    const QList<QTreeWidgetItem *> found = list->findItems(text, Qt::MatchExactly, 0);
    return found.isEmpty() ? nullptr : found.first();
}

// A real double-click: QTest::mouseDClick() alone sends no press before it.
void doubleClick(QTreeWidget *list, const QPoint &position)
{
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, position);
    QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, position);
}

} // namespace

class SessionLibraryPanelTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // As the application does: the English plural forms of the %n strings.
        Translations::install();
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        save(u"pesto.loopscope.json"_s, u"Pesto"_s, 10, u"gpt-4o-mini"_s,
             {u"How do I make pesto?"_s, u"Blend basil, pine nuts, parmesan and olive oil."_s});
        save(u"bread.loopscope.json"_s, u"Bread"_s, 30, u"llama3"_s,
             {u"Which flour for bread?"_s, u"Bread flour; let the dough rise overnight."_s,
              u"And for pizza?"_s, u"Tipo 00 flour."_s});
        save(
            u"soup.loopscope.json"_s, u"Soup"_s, 20, u"claude-sonnet"_s,
            {u"A quick tomato soup?"_s,
             u"Tomatoes, onion, garlic, stock, a pinch of sugar, salt and pepper, and at the end a little basil."_s});
        m_library = std::make_unique<SessionLibrary>(m_dir->path());
        m_panel = std::make_unique<Ui::SessionLibraryPanel>(m_library.get());
        m_panel->resize(700, 400);
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
        m_library->refresh();
        QTRY_COMPARE(m_panel->sessionList()->topLevelItemCount(), 3);
    }

    void cleanup()
    {
        m_panel.reset();
        m_library.reset();
        m_dir.reset();
    }

    void theListShowsEachSessionNewestFirst()
    {
        const QTreeWidget *list = m_panel->sessionList();
        QVERIFY(list->isVisible());
        QCOMPARE(columnTexts(list, 0), (QStringList{u"Bread"_s, u"Soup"_s, u"Pesto"_s}));
        QCOMPARE(columnTexts(list, 2), (QStringList{u"llama3"_s, u"claude-sonnet"_s, u"gpt-4o-mini"_s}));
        QCOMPARE(columnTexts(list, 3), (QStringList{u"2"_s, u"1"_s, u"1"_s}));
        for (const QString &date : columnTexts(list, 1))
            QVERIFY(!date.isEmpty());
        QVERIFY2(m_panel->statusText().contains(u'3'), qPrintable(m_panel->statusText()));
        QCOMPARE(list->accessibleName(), u"Saved sessions"_s);
        QCOMPARE(m_panel->searchField()->accessibleName(), u"Search sessions"_s);
    }

    void theCountOfSessionsReadsAsEnglishPlurals()
    {
        using Panel = Ui::SessionLibraryPanel;
        QCOMPARE(Panel::tr("%n saved session(s)", nullptr, 1), u"1 saved session"_s);
        QCOMPARE(Panel::tr("%n saved session(s)", nullptr, 7), u"7 saved sessions"_s);
        QCOMPARE(m_panel->statusText(), u"3 saved sessions"_s);

        QVERIFY(QFile::remove(m_dir->filePath(u"pesto.loopscope.json"_s)));
        QVERIFY(QFile::remove(m_dir->filePath(u"soup.loopscope.json"_s)));
        m_library->refresh();
        QTRY_COMPARE(m_panel->statusText(), u"1 saved session"_s);
    }

    void theSearchAndTheDatesReadAsEnglishPlurals_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one session found")
            << u"%n session(s) mention “%1”."_s << 1 << u"1 session mentions “%1”."_s;
        QTest::newRow("three sessions found")
            << u"%n session(s) mention “%1”."_s << 3 << u"3 sessions mention “%1”."_s;
        QTest::newRow("a day ago") << u"%n day(s) ago"_s << 1 << u"1 day ago"_s;
        QTest::newRow("days ago") << u"%n day(s) ago"_s << 4 << u"4 days ago"_s;
    }
    void theSearchAndTheDatesReadAsEnglishPlurals()
    {
        QFETCH(QString, source);
        QFETCH(int, count);
        QFETCH(QString, expected);
        QCOMPARE(Ui::SessionLibraryPanel::tr(source.toUtf8().constData(), nullptr, count), expected);
    }

    void inANarrowDockTheTitleKeepsItsRoom()
    {
        QTreeWidget *list = m_panel->sessionList();
        const int character = m_panel->fontMetrics().averageCharWidth();
        m_panel->resize(character * 40, 400);
        QTRY_VERIFY(list->isColumnHidden(2));
        QVERIFY(!list->isColumnHidden(1));
        QVERIFY(list->isHeaderHidden());
        m_panel->resize(character * 20, 400);
        QTRY_VERIFY(list->isColumnHidden(1));
        QVERIFY(list->columnWidth(0) >= m_panel->fontMetrics().horizontalAdvance(u"Bread"_s));
        m_panel->resize(character * 100, 400);
        QTRY_VERIFY(!list->isColumnHidden(1) && !list->isColumnHidden(2) && !list->isColumnHidden(3));
        QVERIFY(!list->isHeaderHidden());
    }

    void aFileWrittenIntoTheFolderAppearsInTheList()
    {
        save(u"later.loopscope.json"_s, u"Later"_s, 40, u"m"_s, {u"q"_s, u"a"_s});
        QTRY_COMPARE(m_panel->sessionList()->topLevelItemCount(), 4);
        QCOMPARE(m_panel->sessionList()->topLevelItem(0)->text(0), u"Later"_s);
    }

    void searchShowsTheSessionsThatMentionTheTextWithSnippets_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("titles");
        QTest::newRow("a word in one session") << u"parmesan"_s << QStringList{u"Pesto"_s};
        QTest::newRow("whatever the case, newest first") << u"BASIL"_s << QStringList{u"Soup"_s, u"Pesto"_s};
        QTest::newRow("in a later message") << u"tipo 00"_s << QStringList{u"Bread"_s};
        QTest::newRow("nowhere") << u"saffron"_s << QStringList{};
    }

    void searchShowsTheSessionsThatMentionTheTextWithSnippets()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, titles);
        QTest::keyClicks(m_panel->searchField(), text);
        QTRY_VERIFY(m_panel->searchResults()->isVisible());
        QTRY_VERIFY2(!m_panel->statusText().contains(u"Searching"_s), qPrintable(m_panel->statusText()));
        QVERIFY(!m_panel->sessionList()->isVisible());
        const QTreeWidget *hits = m_panel->searchResults();
        QCOMPARE(columnTexts(hits, 0), titles);
        // The match is near the start, where a narrow column still shows it.
        for (const QString &snippet : columnTexts(hits, 1)) {
            const qsizetype at = snippet.indexOf(text, 0, Qt::CaseInsensitive);
            QVERIFY2(at >= 0 && at <= 18, qPrintable(snippet));
        }
        if (titles.isEmpty())
            QVERIFY2(m_panel->statusText().contains(text), qPrintable(m_panel->statusText()));
    }

    void clearingTheSearchShowsEverySessionAgain()
    {
        QTest::keyClicks(m_panel->searchField(), u"flour"_s);
        QTRY_COMPARE(columnTexts(m_panel->searchResults(), 0), QStringList{u"Bread"_s});
        m_panel->searchField()->clear();
        QVERIFY(m_panel->sessionList()->isVisible());
        QVERIFY(!m_panel->searchResults()->isVisible());
        QCOMPARE(m_panel->sessionList()->topLevelItemCount(), 3);
    }

    void aSessionIsOpenedBy_data()
    {
        QTest::addColumn<QString>("search");
        QTest::addColumn<QString>("how");
        QTest::newRow("Enter in the list") << QString() << u"enter"_s;
        QTest::newRow("a double-click in the list") << QString() << u"double-click"_s;
        QTest::newRow("Open in the list's context menu") << QString() << u"menu"_s;
        QTest::newRow("Enter on a search hit") << u"tomato"_s << u"enter"_s;
        QTest::newRow("a double-click on a search hit") << u"tomato"_s << u"double-click"_s;
        QTest::newRow("Open in a search hit's context menu") << u"tomato"_s << u"menu"_s;
    }

    void aSessionIsOpenedBy()
    {
        QFETCH(QString, search);
        QFETCH(QString, how);
        QTreeWidget *list = m_panel->sessionList();
        if (!search.isEmpty()) {
            QTest::keyClicks(m_panel->searchField(), search);
            list = m_panel->searchResults();
            QTRY_COMPARE(list->topLevelItemCount(), 1);
        }
        QTreeWidgetItem *soup = itemWithText(list, u"Soup"_s);
        QVERIFY(soup);
        const QPoint center = list->visualItemRect(soup).center();
        QSignalSpy open(m_panel.get(), &Ui::SessionLibraryPanel::openRequested);

        if (how == u"enter") {
            list->setFocus();
            list->setCurrentItem(soup);
            QTest::keyClick(list, Qt::Key_Return);
        } else if (how == u"double-click") {
            doubleClick(list, center);
        } else {
            emit list->customContextMenuRequested(center);
            auto *menu = m_panel->findChild<QMenu *>();
            QVERIFY(menu);
            QTRY_VERIFY(menu->isVisible());
            const QList<QAction *> actions = menu->actions();
            const auto openAction = std::find_if(actions.cbegin(), actions.cend(), [](QAction *action) {
                return action->objectName() == u"openSessionAction"_s;
            });
            QVERIFY(openAction != actions.cend());
            QVERIFY((*openAction)->isEnabled());
            (*openAction)->trigger();
            menu->close();
        }
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first().first().toString(), m_dir->filePath(u"soup.loopscope.json"_s));
    }

    void anUnreadableFileIsListedGreyWithItsError()
    {
        const QString path = m_dir->filePath(u"broken.loopscope.json"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"title\": \"cut in the mid");
        file.close();
        const QString error = TranscriptFile::load(path).error;
        QVERIFY(!error.isEmpty());

        QTRY_COMPARE(m_panel->sessionList()->topLevelItemCount(), 4);
        QTreeWidget *list = m_panel->sessionList();
        QTreeWidgetItem *broken = itemWithText(list, u"broken.loopscope.json"_s);
        QVERIFY(broken);
        QVERIFY2(broken->toolTip(0).contains(error), qPrintable(broken->toolTip(0)));
        QCOMPARE(broken->foreground(0).color(), m_panel->palette().color(QPalette::Disabled, QPalette::Text));
        QVERIFY(itemWithText(list, u"Soup"_s)->foreground(0) != broken->foreground(0));

        // Opening it would only fail: it is not offered.
        QSignalSpy open(m_panel.get(), &Ui::SessionLibraryPanel::openRequested);
        list->setCurrentItem(broken);
        QTest::keyClick(list, Qt::Key_Return);
        doubleClick(list, list->visualItemRect(broken).center());
        QCOMPARE(open.size(), 0);
        QVERIFY(!m_panel->findChild<QAction *>(u"openSessionAction"_s)->isEnabled());
        QVERIFY(m_panel->findChild<QAction *>(u"deleteSessionAction"_s)->isEnabled());
    }

    void deletingASessionAsksFirst_data()
    {
        QTest::addColumn<bool>("confirm");
        QTest::newRow("cancelled: the file stays") << false;
        QTest::newRow("confirmed: the file goes") << true;
    }

    void deletingASessionAsksFirst()
    {
        QFETCH(bool, confirm);
        const QString path = m_dir->filePath(u"soup.loopscope.json"_s);
        QTreeWidget *list = m_panel->sessionList();
        list->setCurrentItem(itemWithText(list, u"Soup"_s));
        m_panel->findChild<QAction *>(u"deleteSessionAction"_s)->trigger();

        // The question does not block: the test goes on while it is shown.
        auto *box = m_panel->findChild<QMessageBox *>(u"deleteSessionConfirmation"_s);
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY(box->text().contains(u"Soup"_s));
        QVERIFY(QFile::exists(path));
        if (confirm)
            box->findChild<QPushButton *>(u"confirmDeleteButton"_s)->click();
        else
            box->button(QMessageBox::Cancel)->click();

        if (confirm) {
            QTRY_COMPARE(columnTexts(list, 0), (QStringList{u"Bread"_s, u"Pesto"_s}));
            QVERIFY(!QFile::exists(path));
        } else {
            QTest::qWait(200);
            QCOMPARE(list->topLevelItemCount(), 3);
            QVERIFY(QFile::exists(path));
        }
    }

private:
    void save(const QString &name, const QString &title, int minutes, const QString &model,
              const QStringList &texts)
    {
        Transcript transcript;
        transcript.title = title;
        transcript.created = QDateTime(QDate(2024, 5, 1), QTime(9, 0), Qt::UTC);
        transcript.updated = transcript.created.addSecs(60LL * minutes);
        transcript.providerKind = u"openai"_s;
        transcript.config.model.model = model;
        for (qsizetype i = 0; i < texts.size(); ++i)
            transcript.messages.append(i % 2 == 0 ? Message::user(texts.at(i))
                                                  : Message::assistant(texts.at(i)));
        QString error;
        QVERIFY2(TranscriptFile::save(transcript, m_dir->filePath(name), &error), qPrintable(error));
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SessionLibrary> m_library;
    std::unique_ptr<Ui::SessionLibraryPanel> m_panel;
};

QTEST_MAIN(SessionLibraryPanelTest)
#include "tst_sessionlibrarypanel.moc"

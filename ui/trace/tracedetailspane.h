#pragma once

#include "agent/trace/tracenode.h"

#include <QJsonObject>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QModelIndex;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTreeWidget;

namespace Loopscope {
class TraceModel;
}

namespace Loopscope::Ui {

class JsonHighlighter;
class JsonTreeView;
class RetrievalView;

/*!
    Everything recorded about one trace step: a header with its status,
    timing, tokens, time to first token and retry attempts, then tabs. A model
    call opens on Request and Response, each a foldable JSON tree (the request
    as it went over the wire, keys in the order sent); a retrieval on its
    passages (RetrievalView); other steps on a tree of the step. Trees fold
    rather than scroll because a long history is one level down, and show
    recorded times as clock times. Raw is the whole step as coloured,
    pretty-printed JSON with a search that highlights every match. Secrets are
    masked in what it shows and in what it copies: the JSON, and for a model
    call a curl command replaying the last attempt. It follows the model, so a
    running step's details fill in as it finishes.
*/
class TraceDetailsPane final : public QWidget
{
    Q_OBJECT

public:
    enum Tab { RequestTab, ResponseTab, StepTab, RawTab, ShownTab, PassagesTab };

    explicit TraceDetailsPane(TraceModel *model, QWidget *parent = nullptr);

    // The step to show; -1 shows nothing.
    void setNode(int nodeId);
    int node() const { return m_node; }

    QString jsonText() const; // what "Copy as JSON" copies
    // The Raw tab shows this much of a long step until the reader asks for all of it:
    // a model call that streamed a long answer is megabytes of JSON.
    static constexpr qsizetype RawPreviewChars = 128 * 1024;
    bool isRawTextShortened() const;
    void showAllRawText();
    QPushButton *showAllButton() const { return m_showAll; }
    QString curlText() const { return m_curl; } // empty unless a model call recorded a request

    int matchCount() const { return int(m_matches.size()); }
    int currentMatch() const { return m_currentMatch; } // index into the matches, -1 when none
    void findNext();
    void findPrevious();

    QTabWidget *tabs() const { return m_tabs; }
    JsonTreeView *requestView() const { return m_requestView; }
    JsonTreeView *responseView() const { return m_responseView; }
    JsonTreeView *stepView() const { return m_stepView; }
    QPlainTextEdit *shownView() const { return m_shownView; }
    RetrievalView *passagesView() const { return m_passagesView; }
    QPlainTextEdit *textView() const { return m_text; }
    QLineEdit *searchField() const { return m_search; }
    QTreeWidget *attemptsView() const { return m_attempts; }
    QAction *copyJsonAction() const { return m_copyJson; }
    QAction *copyCurlAction() const { return m_copyCurl; }

    // The same whatever the step: the splitter that holds the pane never moves when another is shown.
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent *event) override;

private:
    void onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight);
    void refresh();
    void showHeader(const QModelIndex &index, const QJsonObject &payload);
    void showAttempts(const QJsonObject &payload);
    static QString decisionFact(const QJsonObject &payload);
    static QString stepTitle(TraceKind kind, const QString &label);
    static QString numCtxFact(const QJsonObject &payload);
    static QString retrievalFact(const QJsonObject &payload);
    void showTabs(TraceKind kind, const QJsonObject &step, const QJsonObject &payload);
    void updateMatches(); // the search text changed: back to the first match
    void findMatches();   // the text changed: keep the current match
    void goToMatch(int match);
    void highlightMatches();
    void copyJson();
    void copyCurl();
    void showRawText(const QString &json);
    QJsonObject stepObject(const QModelIndex &index, const QJsonObject &payload) const;
    static QString jsonOf(const QJsonObject &step);

    QPointer<TraceModel> m_model;
    int m_node = -1;
    QString m_json; // the Raw text when short; a long one is made again when needed
    qsizetype m_jsonSize = 0;
    size_t m_jsonHash = 0;
    QString m_curl;
    QList<qsizetype> m_matches; // positions in m_json
    int m_currentMatch = -1;
    bool m_rawChosen = false; // the reader picked the Raw tab: keep it for the next step
    bool m_rawWhole = false;  // the reader asked for the whole of this step's Raw text
    int m_tabsNode = -1;      // the step the tabs were last chosen for
    QTimer m_refreshTimer;

    QLabel *m_icon;
    QLabel *m_title;
    QLabel *m_status;
    QLabel *m_facts;
    QTreeWidget *m_attempts;
    mutable int m_steadyMinimumHeight = 0; // the most any step has needed
    QLineEdit *m_search;
    QLabel *m_matchLabel;
    QTabWidget *m_tabs;
    JsonTreeView *m_requestView;
    JsonTreeView *m_responseView;
    JsonTreeView *m_stepView;
    QPlainTextEdit *m_shownView; // what an approval showed the user: a diff, a command, a URL
    RetrievalView *m_passagesView;
    QPlainTextEdit *m_text;
    QPushButton *m_showAll;
    JsonHighlighter *m_highlighter;
    QAction *m_findNext;
    QAction *m_findPrevious;
    QAction *m_copyJson;
    QAction *m_copyCurl;
};

} // namespace Loopscope::Ui

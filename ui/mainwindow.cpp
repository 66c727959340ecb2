#include "mainwindow.h"

#include "trace/tracemodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace Loopscope::Ui {

MainWindow::MainWindow(Trace *trace, QWidget *parent)
    : QMainWindow(parent)
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_traceView(new QTreeView(m_splitter))
    , m_traceModel(new TraceModel(trace, this))
{
    setWindowTitle(tr("Loopscope"));

    auto *chat = new QWidget(m_splitter);
    chat->setAccessibleName(tr("Conversation"));
    auto *chatLayout = new QVBoxLayout(chat);
    auto *placeholder = new QLabel(tr("Start a conversation: the agent's answers appear here,\n"
                                      "and every step of its tool loop in the trace beside it."),
                                   chat);
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setEnabled(false);
    chatLayout->addWidget(placeholder);

    m_traceView->setAccessibleName(tr("Trace"));
    m_traceView->setModel(m_traceModel);
    m_traceView->setUniformRowHeights(true);
    // The label takes what room there is; kind, status, time and tokens are short.
    QHeaderView *header = m_traceView->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(TraceModel::NameColumn, QHeaderView::Stretch);

    m_splitter->insertWidget(0, chat);
    m_splitter->setChildrenCollapsible(true);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    setCentralWidget(m_splitter);
    resize(1200, 760);
    m_splitter->setSizes({660, 540});
}

MainWindow::~MainWindow() = default;

} // namespace Loopscope::Ui

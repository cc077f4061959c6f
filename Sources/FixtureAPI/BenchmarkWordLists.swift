/// The fixed word lists the benchmark archive's vocabulary is made from, most frequent first.
///
/// ``BenchmarkVocabulary`` ranks these (and Korean compounds made from pairs of them) for its Zipf distribution, so the
/// first words here are the most frequent in a generated archive. The words the search benchmark queries (서울, 학교,
/// 회의실, 초안, 담당, release, notes, …) are among the frequent ones.
enum BenchmarkWordLists {
    /// Korean nouns, roughly by how often a company or school board would use them.
    static let koreanNouns: [String] = """
        서울 학교 회의 오늘 일정 프로젝트 회의실 자료 문서 공지 안내 확인 요청 담당 초안 보고서 점심 질문 내용 사진 \
        여행 커피 주차장 도서관 버스 서울시청 행사 교육 신청 접수 마감 결과 발표 계획 예산 회계 인사 채용 면접 \
        출장 휴가 연차 근무 재택 사무실 건물 엘리베이터 식당 메뉴 저녁 아침 주말 내일 어제 이번 다음 지난 월요일 \
        화요일 수요일 목요일 금요일 토요일 일요일 시간 장소 참석 불참 승인 검토 수정 배포 서버 네트워크 프린터 \
        컴퓨터 노트북 모니터 키보드 마우스 전화 메일 메신저 계정 비밀번호 보안 업데이트 설치 오류 장애 복구 백업 \
        데이터 분석 통계 매출 고객 상담 문의 답변 의견 제안 아이디어 개선 변경 사항 제목 첨부 파일 링크 주소 \
        연락처 담당자 팀장 부장 과장 대리 사원 신입 선배 후배 동료 친구 가족 부모님 아이 학생 선생님 교수님 수업 \
        시험 과제 성적 졸업 입학 방학 기숙사 동아리 모임 회식 축제 운동 축구 야구 농구 등산 산책 자전거 지하철 \
        택시 기차 공항 비행기 호텔 날씨 비 눈 바람 봄 여름 가을 겨울 부산 대구 인천 광주 대전 제주도 강남 판교 \
        한강 공원 병원 약국 은행 우체국 편의점 마트 시장 가격 할인 쿠폰 이벤트 선물 생일 축하 감사 사과 부탁 도움 \
        문제 해결 방법 이유 경험 후기 추천 정보 공유 소식 뉴스 기사 책 영화 음악 게임 드라마 앨범 기록 메모 목록 \
        순서 기준 규칙 정책 절차 양식 서류 계약 견적 주문 배송 반품 환불 재고 창고 물품 비품 간식 음료 우산 열쇠 \
        출입증 주차 차량 주유 수리 점검 청소 소독 안전 화재 대피 훈련 건강 검진 예약 취소 공사 소음 전기 난방 \
        냉방 에어컨 조명 창문 책상 의자 회의록 발표자료 결재 품의 분기 연말 연초 목표 성과 평가 보상 복지 세미나 \
        워크숍 스터디 멘토링 코드 리뷰 테스트 빌드 릴리스 버전 기능 버그 이슈 저장소 브랜치 데이터베이스 검색 \
        색인 페이지 화면 디자인 사용자 관리자 권한 로그인 설정 알림 게시판 게시글 댓글 답글 민준 서연 일정표 \
        공문 협조 부서 본사 지사 센터 연구소 실험 장비 재료 샘플 품질 생산 공장 납품 거래처 협력사 계약서 청구서 \
        영수증 출금 입금 카드 법인카드 경비 정산 급여 명세서 연말정산 세금 보험 연금 퇴직 입사 승진 발령 조직 \
        개편 전략 시장조사 설문 인터뷰 고객사 제품 서비스 출시 홍보 광고 캠페인 브랜드 로고 포스터 현수막 영상 \
        촬영 편집 번역 통역 외국어 영어 중국어 일본어 한국어 자격증 강의 강사 교재 수강 출석 지각 조퇴 외근 야근 \
        당직 교대 인수인계 매뉴얼 가이드 체크리스트 템플릿 샘플코드 스크립트 배치 크론 모니터링 대시보드 로그 \
        지표 성능 속도 메모리 용량 디스크 트래픽 접속 요청량 응답 지연 재시도 타임아웃 캐시 프록시 인증서 도메인
        """.split(separator: " ").map(String.init)

    /// English words, roughly by frequency on a Korean company board (technical terms and a few function words).
    static let englishWords: [String] = """
        the release notes build Swift cache search archive update meeting SQLite deploy and to of for in is on with \
        server client API request response error timeout retry page board post index query test review merge branch \
        commit issue fix bug feature design draft plan schedule report budget team project sprint standup demo launch \
        customer support ticket docs guide setup config network database backup restore security token login password \
        account user admin mobile web app iOS Android Linux macOS Docker Kubernetes GitHub CI pipeline benchmark \
        performance memory CPU latency throughput cluster node service queue worker job cron log metric dashboard alert \
        incident outage postmortem roadmap Q1 Q2 Q3 Q4 OKR KPI weekly monthly Friday Monday today tomorrow office lunch \
        coffee travel photo event workshop seminar training onboarding hiring interview feedback proposal idea question \
        answer thanks please note summary agenda minutes action items owner status done pending blocked urgent \
        important optional new old final version v2 beta stable hotfix patch rollback migration schema table column \
        row file folder upload download link email calendar invite room floor parking bus subway Seoul Busan Pangyo \
        Gangnam weekend holiday vacation remote work home data analysis chart model we you it this that will can should \
        not all from by at be are was has have please check see next last week month year time day morning afternoon \
        evening slides deck template checklist manual policy process approval invoice receipt order delivery vendor \
        partner contract price discount coupon launch campaign brand logo video edit translate English Korean Japanese \
        course lecture class exam homework grade library dorm club festival soccer baseball hiking bike train airport \
        hotel weather rain snow spring summer autumn winter hospital pharmacy bank store market gift birthday party \
        welcome goodbye congrats sorry help problem solution reason experience recommend share news article book movie \
        music game playlist album record memo list order rule form document quote stock warehouse snack drink umbrella \
        key badge car repair inspection cleaning safety fire drill health checkup reservation cancel construction noise \
        power heating cooling light window desk chair
        """.split(separator: " ").map(String.init)

    /// Korean predicates that end a sentence.
    static let koreanEndings: [String] = [
        "있습니다.", "했습니다.", "합니다.", "됩니다.", "예정입니다.", "부탁드립니다.", "같아요.", "좋겠습니다.", "필요합니다.",
        "알려 주세요.", "확인했습니다.", "진행합니다.", "공유합니다.", "올립니다.", "정리했습니다.", "어떨까요?", "궁금합니다.",
        "감사합니다.", "참고해 주세요.", "변경되었습니다.", "완료했습니다.", "가능할까요?", "없습니다.", "맞나요?",
    ]

    /// Korean adverbs and determiners sprinkled between nouns.
    static let koreanAdverbs: [String] = [
        "같이", "먼저", "다시", "계속", "아마", "정말", "조금", "많이", "빨리", "천천히", "꼭", "혹시", "이미", "아직", "모두", "그리고",
        "그래서", "하지만", "또", "특히", "우선", "새로", "이번에", "오늘도", "내일까지",
    ]

    /// Korean surnames, most common first, and two-syllable given names for the writer pool.
    static let surnames = "김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 전 홍 고 문 양 손 배 백 허 유 남".split(separator: " ").map(String.init)
    static let givenNames = """
        민준 서연 지훈 수아 예준 하은 도윤 지민 서준 지우 하준 서윤 주원 지호 채원 지유 은우 수빈 현우 예린 \
        시우 지아 건우 다은 우진 소율 선우 윤서 유준 민서 정우 예은 승현 수민 동현 지원 태윤 하린 재원 나은
        """.split(separator: " ").map(String.init)
    static let englishNames = [
        "Alice Kim", "Bob Lee", "Chris Park", "Dana Choi", "Evan Jung", "Grace Yoon", "Henry Cho", "Irene Han", "Jason Oh",
        "Kelly Shin",
    ]

    /// Languages of fenced code blocks, and lines of code to fill them with (`WORD` becomes an English word).
    static let codeLanguages = ["swift", "python", "sql", "bash", "json", "yaml", ""]
    static let codeLines = [
        "let WORD = try store.load(\"WORD\")", "for item in WORD { print(item) }", "SELECT * FROM WORD WHERE id = 42;",
        "if WORD.isEmpty { return nil }", "def WORD(self, value):", "    return value * 2", "curl -s https://example.com/api/WORD",
        "  \"WORD\": true,", "WORD: 3", "git checkout -b WORD", "// TODO: WORD", "x = [i for i in range(10) if i % 2]",
        "swift build -c release", "UPDATE WORD SET status = 'done';", "echo \"WORD\" >> log.txt",
    ]

    /// Host names for links.
    static let linkHosts = ["example.com", "docs.example.org", "wiki.example.kr", "github.com/example", "news.example.net"]
}
